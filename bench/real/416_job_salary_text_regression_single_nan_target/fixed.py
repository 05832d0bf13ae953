"""Job-advert salary regressor (title/description token embeddings with mean pooling plus a category embedding, MLP on log1p(salary), Adam lr 3e-3, MSE, hand-sliced minibatches).

Fixed: adverts whose log-salary target is not finite are dropped from the training rows (the `.dropna`
the course maintainers recommend), so the single advert without a salary never reaches the loss.
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

VOCAB, CATS, T_LEN, D_LEN, DIM = 500, 12, 6, 40, 32
word_value = torch.randn(VOCAB) * (torch.rand(VOCAB) < 0.15)
cat_value = torch.randn(CATS) * 0.3


def adverts(n):
    title = torch.randint(0, VOCAB, (n, T_LEN))
    desc = torch.randint(0, VOCAB, (n, D_LEN))
    cat = torch.randint(0, CATS, (n,))
    log_salary = 10.3 + 0.25 * word_value[title].sum(1) + 0.08 * word_value[desc].sum(1) + cat_value[cat]
    salary = torch.expm1(log_salary + 0.15 * torch.randn(n))
    return title, desc, cat, salary


class SalaryNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.words = nn.Embedding(VOCAB, DIM)
        self.cat = nn.Embedding(CATS, 8)
        self.mlp = nn.Sequential(nn.Linear(2 * DIM + 8, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, title, desc, cat):
        h = torch.cat([self.words(title).mean(1), self.words(desc).mean(1), self.cat(cat)], 1)
        return self.mlp(h).squeeze(1)


title, desc, cat, salary = adverts(7000)
salary[int(torch.randint(0, 6000, ()))] = float("nan")
target = torch.log1p(salary)
train_rows, test_rows = torch.arange(6000), torch.arange(6000, 7000)
test_rows = test_rows[torch.isfinite(target[test_rows])]
train_rows = train_rows[torch.isfinite(target[train_rows])]
mean_t = target[train_rows].nanmean()

model = SalaryNet()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    order = train_rows[torch.randperm(len(train_rows))]
    for i in range(0, len(order), 100):
        b = order[i:i + 100]
        pred = model(title[b], desc[b], cat[b]) + mean_t
        loss = F.mse_loss(pred, target[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = F.mse_loss(model(title[test_rows], desc[test_rows], cat[test_rows]) + mean_t, target[test_rows]).item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")

print(f"final_loss={val:.6g} acc={1 - val / target[test_rows].var().item():.4f}")
