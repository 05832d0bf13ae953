"""Keypoint matcher in the LoFTR style (one MLP encoder per view for the keypoint descriptors,
cosine similarity / temperature, dual softmax, negative log-likelihood of the ground-truth matches)
trained under float16 autocast on CPU. Views have a variable number of keypoints, padded to 32, and
padded entries are pushed out of the similarity matrix by adding (padding mask) * -INF with INF = 1e9,
computed in the similarity's own dtype. Under autocast that dtype is float16, where 1e9 is out of
range: the constant becomes -inf, the unpadded entries get 0 * -inf = NaN, and the loss and then the
weights are NaN from the first step.

Source: https://github.com/zju3dv/LoFTR/issues/285 (About train with fp16)
Report: "you set `INF=1e9` when you do the coarse_matching, which is out of the range of `fp16`. So
i set the filled values to `-1e4` when `sim_matrix.dtype=torch.float16`. But the train loss is also
`NAN`." Reproduced with synthetic scenes: 12-32 keypoints per view, each with a 16-dim descriptor
that the second view sees through a fixed random rotation plus noise and in a shuffled order; an
MLP encoder trained with Adam (lr 2e-3) for 120 steps of 16 view pairs under
torch.autocast("cpu", dtype=torch.float16). The printed loss is the mean match NLL of the last 20
steps, `acc` the fraction of held-out keypoints whose argmax match is correct.

expect: fp16-overflow
symptom: nonfinite
batch: 16
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

N_MAX, D, INF, TEMP = 32, 16, 1e9, 0.1
rotation = torch.linalg.qr(torch.randn(D, D))[0]


def make_pairs(b):
    desc0 = torch.randn(b, N_MAX, D)
    n_valid = torch.randint(12, N_MAX + 1, (b,))
    perm = torch.stack([torch.randperm(N_MAX) for _ in range(b)])
    desc1 = torch.gather(desc0, 1, perm[..., None].expand(-1, -1, D)) @ rotation
    desc1 = desc1 + 0.6 * torch.randn_like(desc1)
    valid0 = torch.arange(N_MAX)[None] < n_valid[:, None]
    valid1 = torch.gather(valid0, 1, perm)
    match = torch.argsort(perm, dim=1)
    return desc0, desc1, valid0, valid1, match


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc0 = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 32))
        self.enc1 = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 32))

    def forward(self, desc0, desc1, valid0, valid1):
        f0 = F.normalize(self.enc0(desc0), dim=-1)
        f1 = F.normalize(self.enc1(desc1), dim=-1)
        sim = f0 @ f1.transpose(1, 2) / TEMP
        pad = ~(valid0[:, :, None] & valid1[:, None, :])
        sim = sim + pad.to(sim.dtype) * -INF
        return sim.softmax(1) * sim.softmax(2)


class MatchTrainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    def loss(self, batch):
        desc0, desc1, valid0, valid1, match = batch
        with torch.autocast("cpu", dtype=torch.float16):
            conf = self.model(desc0, desc1, valid0, valid1)
        picked = torch.gather(conf.float(), 2, match[..., None]).squeeze(-1)
        return -(picked.clamp_min(1e-6).log() * valid0).sum() / valid0.sum()

    def fit(self, steps):
        history = []
        for step in range(steps):
            loss = self.loss(make_pairs(16))
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            history.append(loss.item())
            if step % 20 == 0:
                print(f"step {step} nll {loss.item():.4f}")
        return sum(history[-20:]) / 20

    @torch.no_grad()
    def accuracy(self, n):
        desc0, desc1, valid0, valid1, match = make_pairs(n)
        with torch.autocast("cpu", dtype=torch.float16):
            conf = self.model(desc0, desc1, valid0, valid1).float()
        hit = (conf.argmax(2) == match) & valid0
        return (hit.sum() / valid0.sum()).item()


trainer = MatchTrainer(Matcher())
final = trainer.fit(120)
print(f"final_loss={final:.6g} acc={trainer.accuracy(64):.4f}")
