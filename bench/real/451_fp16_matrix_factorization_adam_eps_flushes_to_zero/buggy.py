"""Movie-rating matrix factorization (user and item embeddings of size 16 plus biases, dot-product prediction, MSE on ratings) converted to pure half precision with `model.half()` to save memory, and trained with Adam at its default epsilon 1e-8. Adam's state then lives in float16 too: 1e-8 is below float16's smallest subnormal and rounds to 0, and the squared gradients of rarely-seen items (gradients around 1e-4 and below) underflow to 0 in the second-moment buffer. For such an entry the update is m / (sqrt(0) + 0) = inf; the embedding becomes infinite, every prediction that touches it is NaN, and the training loss turns NaN.

Source: https://github.com/suvojit-0x55aa/mixed-precision-pytorch/issues/2 (Adam performance would be affected in mixed precision mode?)
Report: "when I change default optimizer from SGDM to Adam in half-precision mode, I find that Adam does not outperform SGDM"
-- maintainer: "FP16 suffers from numerical instability when small updates are taking place. Adam has few such updates that
makes it more unstable. One trick is to check for the `epsilon` value which is normally set to `1e-8` or `1e-7`, those
values being unrepresentable in FP16, try changing it". Reproduced with a half-precision factorization model on synthetic
low-rank ratings (500 users, 800 items with a long-tailed popularity) and Adam on the float16 parameters; the fix raises
epsilon to 1e-4, which float16 can hold. The printed loss is the held-out rating MSE, `acc` the fraction of held-out
ratings predicted within 0.5 stars.

expect: fp16-underflow
symptom: nonfinite
batch: 28
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_USERS, N_ITEMS, DIM, ADAM_EPS = 500, 800, 16, 1e-8
true_u = 0.6 * torch.randn(N_USERS, 4)
true_i = 0.6 * torch.randn(N_ITEMS, 4)
popularity = 1.0 / torch.arange(1, N_ITEMS + 1).float() ** 0.9


def ratings(n):
    u = torch.randint(0, N_USERS, (n,))
    i = torch.multinomial(popularity, n, replacement=True)
    r = (3.5 + (true_u[u] * true_i[i]).sum(1) + 0.3 * torch.randn(n)).clamp(1, 5)
    return u, i, r


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, DIM)
        self.item = nn.Embedding(N_ITEMS, DIM)
        self.user_bias = nn.Embedding(N_USERS, 1)
        self.item_bias = nn.Embedding(N_ITEMS, 1)
        for emb in (self.user, self.item):
            nn.init.normal_(emb.weight, 0, 0.1)
        for emb in (self.user_bias, self.item_bias):
            nn.init.zeros_(emb.weight)

    def forward(self, u, i):
        dot = (self.user(u) * self.item(i)).sum(1)
        return 3.5 + dot + self.user_bias(u).squeeze(1) + self.item_bias(i).squeeze(1)


u_tr, i_tr, r_tr = ratings(40000)
u_te, i_te, r_te = ratings(8000)
model = MF().half()
opt = torch.optim.Adam(model.parameters(), lr=3e-3, eps=ADAM_EPS)
r_tr_h = r_tr.half()

for epoch in range(4):
    perm = torch.randperm(len(r_tr))
    total, steps = 0.0, 0
    for start in range(0, len(perm), 512):
        idx = perm[start:start + 512]
        pred = model(u_tr[idx], i_tr[idx])
        loss = ((pred - r_tr_h[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.float().item()
        steps += 1
    with torch.no_grad():
        pred = model(u_te, i_te).float()
        test_mse = ((pred - r_te) ** 2).mean().item()
        acc = ((pred - r_te).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} train {total / steps:.4f} test {test_mse:.4f} within0.5 {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
