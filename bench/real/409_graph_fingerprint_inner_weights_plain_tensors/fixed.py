"""Neural graph fingerprint for molecules (one-hot atoms, two message-passing layers with softmax fingerprint readouts summed over atoms, MLP head regressing a bond-type property; Adam lr 3e-3, MSE on the standardized target).

Fixed: the per-layer weight matrices are wrapped in `nn.ParameterList` of `nn.Parameter`s instead of plain
tensors in Python lists, so they are registered with the module and trained by the optimizer together with
the head.
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
        self.hidden_w = nn.ParameterList([nn.Parameter(torch.randn(dims[i], dims[i + 1]) / dims[i] ** 0.5) for i in range(2)])
        self.output_w = nn.ParameterList([nn.Parameter(torch.randn(dims[i + 1], FP) / dims[i + 1] ** 0.5) for i in range(2)])
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
