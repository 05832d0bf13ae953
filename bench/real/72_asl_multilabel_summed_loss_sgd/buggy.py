"""Multi-label tagger trained with the Asymmetric Loss (ASL) as published, `-loss.sum()` over batch
and labels, but optimised with plain SGD at a learning rate meant for a mean loss.

Source: https://github.com/Alibaba-MIIL/ASL/issues/56 (loss.mean() or loss.sum())
Report: "when i use SGD to optimize the model, should i change loss.sum() to loss.mean()?";
replies: "From my experience that using mean for SGD is far better and the loss is far stable
than when using sum. But when using Adam then both sum and mean behave similarly." and "I train
my network on Open Image Dataset, which has more than 10k labels, and I got NaN loss. So I
changed it to loss.mean(), and the loss is not NaN". The summed loss makes the gradient (and an
SGD step) batch x labels times larger than with a mean. Reproduced with the repository's
AsymmetricLoss (gamma_neg=4, gamma_pos=1, clip=0.05) on a linear-probe-style tagger over
synthetic 256-d image embeddings with 500 sparse labels (~5 per image) and
SGD(momentum=0.9, lr=5.0), a step size sized for the mean: with the sum the first steps blow the
loss up from ~1e3 to ~6e3, where it stays (the ReLU layer dies). `acc` is precision@5.

expect: loss-reduction
symptom: acc-below 0.2
batch: 3
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


class AsymmetricLoss(nn.Module):
    def __init__(self, gamma_neg=4, gamma_pos=1, clip=0.05, eps=1e-8):
        super().__init__()
        self.gamma_neg, self.gamma_pos, self.clip, self.eps = gamma_neg, gamma_pos, clip, eps

    def forward(self, x, y):
        x_sigmoid = torch.sigmoid(x)
        xs_pos = x_sigmoid
        xs_neg = 1 - x_sigmoid
        if self.clip is not None and self.clip > 0:
            xs_neg = (xs_neg + self.clip).clamp(max=1)
        los_pos = y * torch.log(xs_pos.clamp(min=self.eps))
        los_neg = (1 - y) * torch.log(xs_neg.clamp(min=self.eps))
        loss = los_pos + los_neg
        pt = xs_pos * y + xs_neg * (1 - y)
        one_sided_gamma = self.gamma_pos * y + self.gamma_neg * (1 - y)
        loss *= torch.pow(1 - pt, one_sided_gamma)
        return -loss.sum()


N, D, L = 6000, 256, 500
emb = torch.randn(N, D)
proto = torch.randn(L, D) / D ** 0.5
scores = emb @ proto.T
targets = (scores > scores.quantile(0.99, dim=1, keepdim=True)).float()  # ~5 tags per image

model = nn.Sequential(nn.Linear(D, 512), nn.ReLU(), nn.Linear(512, L))
criterion = AsymmetricLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=5.0, momentum=0.9)
losses = []
for it in range(300):
    idx = torch.randint(0, N, (64,))
    loss = criterion(model(emb[idx]), targets[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if it % 20 == 0:
        print(f"iter {it} loss {loss.item():.4f}")

with torch.no_grad():
    top5 = model(emb[:1000]).topk(5, dim=1).indices
    prec5 = targets[:1000].gather(1, top5).mean().item()  # precision@5 of the tag ranking
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={prec5:.4f}")
