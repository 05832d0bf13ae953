"""Seven-segment decoder learned by a small tanh network: four BCD input lines (read as noisy analogue levels, -1 for 0 and +1 for 1) go through 20 tanh hidden units to 7 tanh outputs, one per segment, trained towards -1/+1 segment targets with squared error and plain SGD through a DataLoader. The weights are drawn uniformly from [-5, 5], so already at the start nearly every hidden unit and every output unit sits deep in the flat tails of tanh; segments that start on the wrong side output -1 where +1 is wanted, the error is multiplied by 1 - out^2 = 0, and those outputs stay wrong for the whole run.

Source: https://stackoverflow.com/questions/13632976/neural-network-with-tanh-wrong-saturation-with-normalized-data (Neural Network with tanh wrong saturation with normalized data)
Report: "I'm using a neural network made of 4 input neurons, 1 hidden layer made of 20 neurons and a 7
neuron output layer. I'm trying to train it for a bcd to 7 segment algorithm. My data is normalized 0 is
-1 and 1 is 1. When the output error evaluation happens, the neuron saturates wrong. If the desired output
is 1 and the real output is -1, the error is 1-(-1)= 2. When I multiply it by the derivative of the
activation function error*(1-output)*(1+output), the error becomes almost 0". Reproduced with 4,000
noisy BCD readings of the digits 0-9 (Gaussian noise 0.3 on each line), the 4-20-7 tanh network with
U(-5, 5) weights, SGD lr 0.05, batch 32, 6 epochs. The printed loss is the squared error on 1,000
held-out readings, `acc` the fraction of held-out segments with the right sign.

expect: saturated-activation
symptom: acc-below 0.9
batch: 21
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SEGMENTS = torch.tensor([[1, 1, 1, 1, 1, 1, 0], [0, 1, 1, 0, 0, 0, 0], [1, 1, 0, 1, 1, 0, 1],
                         [1, 1, 1, 1, 0, 0, 1], [0, 1, 1, 0, 0, 1, 1], [1, 0, 1, 1, 0, 1, 1],
                         [1, 0, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1],
                         [1, 1, 1, 1, 0, 1, 1]]).float() * 2 - 1
BCD = torch.tensor([[(d >> b) & 1 for b in (3, 2, 1, 0)] for d in range(10)]).float() * 2 - 1
INIT_RANGE = 5.0


def readings(n):
    d = torch.randint(0, 10, (n,))
    return BCD[d] + 0.3 * torch.randn(n, 4), SEGMENTS[d]


X_train, Y_train = readings(4000)
X_test, Y_test = readings(1000)
net = nn.Sequential(nn.Linear(4, 20), nn.Tanh(), nn.Linear(20, 7), nn.Tanh())
with torch.no_grad():
    for p in net.parameters():
        p.uniform_(-INIT_RANGE, INIT_RANGE)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=32, shuffle=True)

for epoch in range(6):
    for xb, yb in loader:
        loss = ((net(xb) - yb) ** 2).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = net(X_test)
        test_loss = ((out - Y_test) ** 2).sum(1).mean().item()
        acc = (out.sign() == Y_test).float().mean().item()
    print(f"epoch {epoch} test error {test_loss:.4f} segment acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
