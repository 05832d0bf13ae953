"""Neural graph fingerprint for molecules: atoms carry one-hot element features, two message-passing layers (h <- relu((h + A h) W_l)) each write a softmax "fingerprint" readout (h O_l) that is summed over atoms, and a small MLP head regresses a bond-type property from the summed fingerprint; Adam lr 3e-3, minibatches of 64, MSE on the standardized target. The per-layer weight matrices W_l and O_l are created inside the model as plain tensors with requires_grad set and kept in Python lists, so they are never registered as module parameters: `model.parameters()` hands the optimizer only the head, the message-passing and readout weights stay at their random initial values, and the head must regress from a random, untrained fingerprint.

Source: https://github.com/keiserlab/keras-neural-graph-fingerprint/issues/2 (Add trainable weights)
Report: "Currently the inner dense layers in `NeuralGraphHidden` and `NeuralGraphOutput` do initialise their
weights, but the parameters are not stored in `NeuralGraphHidden.trainable_weights`. As a result, the
layers are not learning." Reproduced with 2,000 synthetic molecules of 12 atoms (6 element types,
random bonds); the property is a weighted count of bonds by element pair. The printed loss is the MSE
on 600 held-out molecules (standardized target), `acc` is the held-out R^2.

expect: params-not-updated
symptom: final-loss-ratio 1.6
batch: 25
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ATOMS, ELEMENTS, HID, FP = 12, 6, 32, 32
pair_weight = torch.randn(ELEMENTS, ELEMENTS)
pair_weight = (pair_weight + pair_weight.T) / 2


def make_molecules(n):
    elem = torch.randint(0, ELEMENTS, (n, ATOMS))
    x = F.one_hot(elem, ELEMENTS).float()
    upper = (torch.rand(n, ATOMS, ATOMS) < 0.2).float().triu(1)
    adj = upper + upper.transpose(1, 2)
    y = torch.einsum("bij,bik,bjl,kl->b", adj, x, x, pair_weight) / 2
    return x, adj, y


class NeuralFingerprint(nn.Module):
    def __init__(self):
        super().__init__()
        dims = [ELEMENTS, HID, HID]
        self.hidden_w = [(torch.randn(dims[i], dims[i + 1]) / dims[i] ** 0.5).requires_grad_() for i in range(2)]
        self.output_w = [(torch.randn(dims[i + 1], FP) / dims[i + 1] ** 0.5).requires_grad_() for i in range(2)]
        self.head = nn.Sequential(nn.Linear(FP, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x, adj):
        h, fp = x, 0.0
        for w, o in zip(self.hidden_w, self.output_w):
            h = torch.relu((h + adj @ h) @ w)
            fp = fp + torch.softmax(h @ o, dim=-1).sum(1)
        return self.head(fp).squeeze(-1)


x_tr, a_tr, y_tr = make_molecules(2000)
x_te, a_te, y_te = make_molecules(600)
mu, sd = y_tr.mean(), y_tr.std()
y_tr, y_te = (y_tr - mu) / sd, (y_te - mu) / sd

model = NeuralFingerprint()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(20):
    perm = torch.randperm(len(y_tr))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = F.mse_loss(model(x_tr[idx], a_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            test_mse = F.mse_loss(model(x_te, a_te), y_te).item()
        print(f"epoch {epoch} train {loss.item():.4f} test {test_mse:.4f}")

with torch.no_grad():
    test_mse = F.mse_loss(model(x_te, a_te), y_te).item()
print(f"final_loss={test_mse:.6g} acc={1 - test_mse / y_te.var().item():.4f}")
