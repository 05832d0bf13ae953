"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: return the raw score from forward (BCEWithLogitsLoss applies the sigmoid).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_users, n_items, k = 300, 200, 8
U, V = torch.randn(n_users, 4), torch.randn(n_items, 4)
affinity = U @ V.T
pos = (affinity > 1.5).nonzero()  # interactions observed for clearly liked items
neg_u = pos[:, 0]
neg_i = torch.randint(0, n_items, (len(pos),))
keep = affinity[neg_u, neg_i] < 0  # sampled negatives the user does not like
users = torch.cat([pos[:, 0], neg_u[keep]])
items = torch.cat([pos[:, 1], neg_i[keep]])
labels = torch.cat([torch.ones(len(pos)), torch.zeros(int(keep.sum()))])
train_loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(users, items, labels), batch_size=256, shuffle=True)


class PointMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_user = nn.Embedding(n_users, k)
        self.embed_item = nn.Embedding(n_items, k)
        nn.init.normal_(self.embed_user.weight, std=0.1)
        nn.init.normal_(self.embed_item.weight, std=0.1)

    def forward(self, user, item):
        pred = (self.embed_user(user) * self.embed_item(item)).sum(dim=-1)
        return pred


model = PointMF()
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
losses = []
for epoch in range(8):
    for user, item, label in train_loader:
        prediction = model(user, item)
        loss = criterion(prediction, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
with torch.no_grad():
    s = model(users, items)
    acc = ((s > s.median()).float() == labels).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
