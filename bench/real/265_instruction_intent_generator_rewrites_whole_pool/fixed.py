"""Generated-instruction intent classifier -- fixed as in the instructlab fix: each generation
round writes only its newly proposed instructions to the training file, so the 2,400 rows are 2,400
distinct instructions instead of ~480 repeated ones. Nothing else changed.
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

VOCAB, LEN, N_INTENT, TARGET_ROWS, PER_ROUND = 400, 14, 6, 2400, 60
keywords = torch.randperm(VOCAB)[: N_INTENT * 8].view(N_INTENT, 8)


def propose(n):
    y = torch.randint(0, N_INTENT, (n,))
    toks = torch.randint(0, VOCAB, (n, LEN))
    n_kw = torch.randint(1, 4, (n,))
    for i in range(n):
        pos = torch.randperm(LEN)[: n_kw[i]]
        toks[i, pos] = keywords[y[i], torch.randint(0, 8, (int(n_kw[i]),))]
    noisy = torch.rand(n) < 0.25
    y = torch.where(noisy, torch.randint(0, N_INTENT, (n,)), y)
    return toks, y


def generate_train_file():
    pool_x, pool_y, rows_x, rows_y, written = [], [], [], [], 0
    while written < TARGET_ROWS:
        x, y = propose(PER_ROUND)
        pool_x.append(x)
        pool_y.append(y)
        out_x, out_y = x, y
        rows_x.append(out_x)
        rows_y.append(out_y)
        written += len(out_x)
    return torch.cat(rows_x)[:TARGET_ROWS], torch.cat(rows_y)[:TARGET_ROWS]


X_train, y_train = generate_train_file()
X_val, y_val = propose(2000)


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 48, mode="mean")
        self.head = nn.Sequential(nn.Linear(48, 96), nn.ReLU(), nn.Linear(96, N_INTENT))

    def forward(self, toks):
        return self.head(self.emb(toks))


model = BagClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=32, shuffle=True)

for epoch in range(8):
    model.train()
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(X_val)
        val_loss = F.cross_entropy(logits, y_val).item()
        acc = (logits.argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} acc {acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
