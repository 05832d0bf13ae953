"""Phone-state classifier for speech frames (39-d cepstral frame features with context, 8 phone
classes; a deep fully connected network with 7 sigmoid hidden layers of 256 units, plain SGD from a
DataLoader). All seven layers are stacked and trained from random initialisation at once. Each
sigmoid layer scales the back-propagated gradient by at most 0.25 times its weights, so after seven of
them the lower layers receive almost no gradient: the training error does not move from chance for
the whole run, whereas the same network grown one hidden layer at a time trains fine.

Source: https://github.com/microsoft/CNTK/issues/476 (Training invalidation when add the nubmer of layers)
Report: "i trained a DNN with 6 hidden layers * 2048 nodes and it worked well. Its activation function
is Sigmoid. But when i added a hidden layer( 6 layers to 7 layers ) , the training stucked at the
begining.The training error don't descend at all." -- later: "Finally i choose to do some epochs for
discriminative pretraining and it becomes more stable." Reproduced with 6,000 synthetic frames
(each phone a mixture of two Gaussian clusters in feature space), network 39-7x256-8 with sigmoid
hidden units and PyTorch's default initialisation, SGD lr 0.1 momentum 0.5, batch 64, 14 epochs. The
printed loss is the validation cross-entropy on 1,500 frames, `acc` the validation frame accuracy.

expect: vanishing-gradient
symptom: acc-below 0.4
batch: 15
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

FEATS, PHONES, HIDDEN, LAYERS = 39, 8, 256, 7
centres = 1.2 * torch.randn(PHONES, 2, FEATS)


def frames(n):
    y = torch.randint(0, PHONES, (n,))
    k = torch.randint(0, 2, (n,))
    return centres[y, k] + torch.randn(n, FEATS), y


x_train, y_train = frames(6000)
x_val, y_val = frames(1500)
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)


def run_epochs(model, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    for _ in range(epochs):
        total = 0.0
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
    return total / len(x_train)


def block(n_in):
    return nn.Sequential(nn.Linear(n_in, HIDDEN), nn.Sigmoid())


hidden = [block(FEATS)] + [block(HIDDEN) for _ in range(LAYERS - 1)]
model = nn.Sequential(*hidden, nn.Linear(HIDDEN, PHONES))
for stage in range(7):
    train_loss = run_epochs(model, 2)
    print(f"stage {stage} layers {LAYERS} train loss {train_loss:.4f}")

with torch.no_grad():
    out = model(x_val)
    val_loss = F.cross_entropy(out, y_val).item()
    acc = (out.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
