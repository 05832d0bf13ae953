"""Pairwise reward model for response ranking (a bag-of-embeddings text encoder with a scalar head, trained so that the preferred response of each pair scores higher: loss -log sigmoid(r_chosen - r_rejected)). To save memory the model is converted to float16 before training and optimised with Adam at its default eps=1e-8. In float16 that eps is below the smallest representable subnormal (about 6e-8) and rounds to 0; Adam's second-moment estimate 0.001*g^2 of an ordinary small gradient underflows to 0 as well, so the update denominator sqrt(v)+eps is exactly 0 and the very first step writes Inf and NaN (0/0 for embedding rows not seen in the batch) into the weights. Every later reward and the loss are NaN.

Source: https://github.com/CambioML/pykoi/pull/69 (Fix the issue of parameters updated as nan during reward model training.)
Report: "Language model is loaded in torch.float16. Adam optimizer adds epsilon to avoid zero
denominator. Note, torch.float16 will round any number smaller than 6e-8 to 0. Do not change
epsilon to smaller than 6e-8." Reproduced with 3,000 synthetic response pairs over a 600-token
vocabulary (preferred responses carry more tokens from a hidden "helpful" subset), an
EmbeddingBag(600, 32) -> MLP 32-64-1 reward model cast with .half(), torch.optim.Adam(lr 2e-3,
default eps), pairs in batches of 64 sliced by hand for 4 epochs. The printed loss is the pairwise
loss on 800 held-out pairs, `acc` the fraction of held-out pairs ranked correctly.

expect: fp16-underflow
symptom: nonfinite
batch: 19
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

VOCAB, LEN = 600, 20
helpfulness = torch.randn(VOCAB)


def pairs(n):
    a, b = torch.randint(0, VOCAB, (n, LEN)), torch.randint(0, VOCAB, (n, LEN))
    score_a = helpfulness[a].mean(1) + 0.1 * torch.randn(n)
    score_b = helpfulness[b].mean(1) + 0.1 * torch.randn(n)
    a_wins = (score_a > score_b).unsqueeze(1)
    return torch.where(a_wins, a, b), torch.where(a_wins, b, a)


class RewardModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, 32, mode="mean")
        self.head = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, tokens):
        return self.head(self.emb(tokens)).squeeze(1)


def pair_loss(model, chosen, rejected):
    margin = (model(chosen) - model(rejected)).float()
    return -F.logsigmoid(margin).mean(), (margin > 0).float().mean()


train_c, train_r = pairs(3000)
test_c, test_r = pairs(800)
model = RewardModel().half()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(4):
    order = torch.randperm(len(train_c))
    for s in range(0, len(order), 64):
        idx = order[s:s + 64]
        loss, _ = pair_loss(model, train_c[idx], train_r[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        test_loss, test_acc = pair_loss(model, test_c, test_r)
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss.item():.4f} ranked {test_acc.item():.3f}")

print(f"final_loss={test_loss.item():.6g} acc={test_acc.item():.4f}")
