"""Loan-default classifier on 16 standardised applicant features: a 16-64-64-1 ReLU MLP trained with binary cross-entropy through a small Trainer class (SGD with momentum 0.9, batches of 64 from a DataLoader). The learning rate is set to 1.0: the first few oversized momentum steps throw the second hidden layer's weights and biases so far that its pre-activations are negative for every applicant, every one of its ReLUs outputs zero for the whole data set, no gradient reaches it or the layer below any more, and the model is left predicting a constant probability for every applicant.

Source: https://github.com/keras-team/keras/issues/7057 (Feature proposal: detect dead ReLUs)
Report: "Some ReLU neurons never fire during entire training epoch due to their unlucky weights. Since they
are flat on negative input, their gradient is zero. Hence, their weights are not updated ... Additionally,
too high learning rate can eventually push neuron's weights into the never-active zone, knocking it out from
training. This problem (often referenced as \"dead ReLU\") is very common but somewhat tricky to debug".
Reproduced with 8,000 synthetic applicants (a smooth nonlinear score of the features decides default,
about half default), the MLP above, SGD lr 1.0 with momentum 0.9, 8 epochs. The printed loss is the
cross-entropy on 2,000 held-out applicants, `acc` the accuracy there.

expect: dead-relu
symptom: acc-below 0.7
batch: 21
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

D = 16
mix = torch.randn(D, 8)


def applicants(n):
    x = torch.randn(n, D)
    score = torch.tanh(x @ mix / 3).sum(1) + 0.3 * x[:, 0] * x[:, 1]
    return x, (score > 0).float()


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def fit_epoch(self, loader):
        self.model.train()
        total = 0.0
        for xb, yb in loader:
            loss = F.binary_cross_entropy_with_logits(self.model(xb).squeeze(1), yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(xb)
        return total / len(loader.dataset)

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        logits = self.model(x).squeeze(1)
        return F.binary_cross_entropy_with_logits(logits, y).item(), ((logits > 0).float() == y).float().mean().item()


X_train, y_train = applicants(8000)
X_val, y_val = applicants(2000)
model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
trainer = Trainer(model, lr=1.0)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(8):
    train_loss = trainer.fit_epoch(loader)
    val_loss, val_acc = trainer.evaluate(X_val, y_val)
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
