"""Click-through-rate model -- fixed as in the PR: the BinaryOutput head's default loss is BCELoss,
which matches its sigmoid output (nothing else changed).
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

N, USERS, ITEMS, CATS = 20000, 1000, 800, 30
user_f, item_f = torch.randn(USERS, 8), torch.randn(ITEMS, 8)
item_cat = torch.randint(0, CATS, (ITEMS,))
cat_pop = 0.7 * torch.randn(CATS)
users = torch.randint(0, USERS, (N,))
items = torch.randint(0, ITEMS, (N,))
dense = torch.randn(N, 4)
logit = (0.9 * (user_f[users] * item_f[items]).sum(1) / 8 ** 0.5 + cat_pop[item_cat[items]]
         + 0.6 * dense[:, 0] - 0.4 * dense[:, 1] * dense[:, 2] - 1.2)
clicks = (torch.rand(N) < torch.sigmoid(2.0 * logit)).float()
cats = item_cat[items]


class BinaryOutput(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.linear = nn.Linear(in_features, 1)
        self.default_loss = nn.BCELoss()

    def forward(self, x):
        return torch.sigmoid(self.linear(x)).squeeze(1)


class DLRM(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.embeddings = nn.ModuleDict({"user": nn.Embedding(USERS, dim), "item": nn.Embedding(ITEMS, dim),
                                         "category": nn.Embedding(CATS, dim)})
        self.bottom = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, dim), nn.ReLU())
        self.top = nn.Sequential(nn.Linear(6 + dim, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.output = BinaryOutput(32)

    def forward(self, u, i, c, x):
        vecs = torch.stack([self.embeddings["user"](u), self.embeddings["item"](i),
                            self.embeddings["category"](c), self.bottom(x)], 1)
        inter = vecs @ vecs.transpose(1, 2)
        iu = torch.triu_indices(4, 4, 1)
        pairs = inter[:, iu[0], iu[1]]
        return self.output(self.top(torch.cat([pairs, vecs[:, 3]], 1)))


tr, te = slice(0, 16000), slice(16000, N)
loader = DataLoader(TensorDataset(users[tr], items[tr], cats[tr], dense[tr], clicks[tr]), batch_size=256, shuffle=True)
model = DLRM()
loss_fn = model.output.default_loss
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(8):
    total, count = 0.0, 0
    for u, i, c, x, y in loader:
        loss = loss_fn(model(u, i, c, x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    p = model(users[te], items[te], cats[te], dense[te])
    acc = ((p > 0.5).float() == clicks[te]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
