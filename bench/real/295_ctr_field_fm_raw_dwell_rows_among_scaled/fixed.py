"""libFFM-style CTR model -- fixed by treating it as the dataset issue it is: rows whose numeric fields
fall outside the promised [0, 1] range (the unscaled shard) are dropped before training, so no
score reaches the hundreds and the logistic loss stays finite (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CARD = [50, 30, 4]
N_NUM, K = 4, 8
true_cat = [torch.randn(c) for c in CARD]
true_num = torch.tensor([1.5, -1.0, 0.8, 0.0])


def impressions(n, raw_share=0.0):
    cats = torch.stack([torch.randint(0, c, (n,)) for c in CARD], 1)
    nums = torch.rand(n, N_NUM)
    logit = sum(true_cat[f][cats[:, f]] for f in range(3)) + nums @ true_num - 0.5
    y = torch.where(torch.rand(n) < torch.sigmoid(logit), 1.0, -1.0)
    raw = torch.rand(n) < raw_share
    nums[raw] = nums[raw] * torch.tensor([3000.0, 500.0, 1.0, 200.0])
    return cats, nums, y


class FM(nn.Module):
    def __init__(self):
        super().__init__()
        self.offsets = torch.tensor([0] + CARD[:-1]).cumsum(0)
        self.lin_cat = nn.Embedding(sum(CARD), 1)
        self.emb_cat = nn.Embedding(sum(CARD), K)
        self.lin_num = nn.Linear(N_NUM, 1)
        self.emb_num = nn.Parameter(0.1 * torch.randn(N_NUM, K))
        nn.init.normal_(self.emb_cat.weight, 0, 0.1)
        nn.init.zeros_(self.lin_cat.weight)

    def forward(self, cats, nums):
        ids = cats + self.offsets
        v = torch.cat([self.emb_cat(ids), nums.unsqueeze(-1) * self.emb_num], 1)
        pair = 0.5 * (v.sum(1) ** 2 - (v ** 2).sum(1)).sum(1)
        return self.lin_cat(ids).sum((1, 2)) + self.lin_num(nums).squeeze(1) + pair


def keep_valid(cats, nums, y):
    ok = ((nums >= 0) & (nums <= 1)).all(1)
    return cats[ok], nums[ok], y[ok]


cats, nums, y = keep_valid(*impressions(20000, raw_share=0.003))
te_cats, te_nums, te_y = impressions(4000)
model = FM()
opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
for epoch in range(3):
    perm = torch.randperm(len(y))
    total = 0.0
    for i in range(0, len(perm), 256):
        idx = perm[i:i + 256]
        score = model(cats[idx], nums[idx])
        loss = torch.log(1 + torch.exp(-y[idx] * score)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch + 1} logloss {total / len(y):.4f}")

with torch.no_grad():
    acc = ((model(te_cats, te_nums) > 0).float() * 2 - 1 == te_y).float().mean().item()
print(f"final_loss={total / len(y):.6g} acc={acc:.4f}")
