"""LoFTR-style keypoint matcher under float16 autocast -- fixed as the reporter does: the masking
constant INF is lowered from 1e9 to 1e4, a value float16 can hold, so the additive padding mask stays
finite (0 for real entries, -1e4 for padding). Nothing else changed.
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

N_MAX, D, INF, TEMP = 32, 16, 1e4, 0.1
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
