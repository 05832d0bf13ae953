"""Next-sample forecaster for machine-vibration traces (a vanilla tanh RNN with 64 units reads 80
samples and predicts each following sample, MSE, SGD with momentum through a DataLoader) trained
without gradient clipping. Back-propagating through 80 recurrent steps, the gradient of the
recurrent weights has rare but huge spikes; with momentum 0.9 one such step throws the weights so
far that the following gradients are larger still, and within the first epoch the weights and the
loss overflow to inf/NaN. The same learning rate trains smoothly once the gradient norm is clipped.

Source: https://stats.stackexchange.com/posts/487195/revisions (answer: RNN loss jumps after a large step)
Report: "This is a common phenomenon with RNNs: they can be prone to taking a large step and getting
trapped in a virtually flat place in the loss surface. Gradient clipping is successful in
mitigating this. ... Using a smaller step size might not help because the gradient can grow without
bound". Reproduced with 2,000 synthetic vibration traces of 81 samples (a sinusoid with random
frequency, phase and amplitude plus sensor noise), nn.RNN(1, 64) with a linear read-out, SGD lr
0.3 momentum 0.9, batch 32, 10 epochs. The printed loss is the mean training MSE of the last epoch,
`acc` 1 - held-out MSE / held-out signal variance on 300 traces.

expect: exploding-gradient
symptom: nonfinite
batch: 14
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T = 80


def traces(n):
    t = torch.arange(T + 1).float()[None, :]
    freq = 0.1 + 0.3 * torch.rand(n, 1)
    phase = 6.28 * torch.rand(n, 1)
    s = torch.sin(freq * t + phase) * (1 + torch.rand(n, 1)) + 0.05 * torch.randn(n, T + 1)
    return s[:, :-1, None], s[:, 1:, None]


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(1, 64, batch_first=True)
        self.out = nn.Linear(64, 1)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h)


train_x, train_y = traces(2000)
test_x, test_y = traces(300)
model = Forecaster()
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)

for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    train_loss = total / len(train_x)
    print(f"epoch {epoch} mse {train_loss:.5f}")

with torch.no_grad():
    acc = 1 - F.mse_loss(model(test_x), test_y).item() / test_y.var().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
