"""Pedestrian trajectory forecaster in the style of Social-STGCNN (a spatio-temporal graph convolution over the pedestrians of a scene, a time-extrapolator CNN, a bivariate Gaussian output per future step trained with its negative log-likelihood) run with SGD at a learning rate far above what the model tolerates: the correlation and scale heads are driven to their limits, tanh(corr) reaches exactly +-1, 1 - rho^2 = 0 turns the likelihood into 0/0 and the loss goes NaN.

Source: https://github.com/abduallahmohamed/Social-STGCNN/issues/20 (Geting loss of NaN for some epochs during training)
Report: "I have got loss of nan during my training"; several users hit it ("I got all the loss of
nan after epoch 3"); the answer that resolved it: "I try to reduce the learning_rate, it works!"
Reproduced with the model in miniature (relative-displacement node features over 8 observed
frames, an inverse-distance adjacency normalised per frame, one ST-GCN block with PReLU, a 3-layer
TXP-CNN mapping 8 observed to 12 predicted frames, 5 outputs per pedestrian and frame: mu_x, mu_y,
log sigma_x, log sigma_y, corr) and the repository's bivariate loss (exp on the scales, tanh on
the correlation, -log of the clamped density), on 2,000 synthetic scenes of 5 pedestrians walking
with individual speeds and gentle turns, and plain SGD with momentum at lr 0.3 (the fixed
version uses 0.003). The printed loss is the mean NLL of the last epoch,
`acc` the share of held-out final positions within 1 m (FDE < 1.0).

expect: lr-too-high
symptom: nonfinite
batch: 9
"""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

OBS, PRED, PEDS = 8, 12, 5


def make_scenes(n):
    T = OBS + PRED
    pos0 = torch.rand(n, PEDS, 2) * 8
    heading = torch.rand(n, PEDS) * 2 * math.pi
    speed = 0.3 + 0.3 * torch.rand(n, PEDS)
    turn = 0.06 * torch.randn(n, PEDS)
    steps = []
    for t in range(T):
        h = heading + turn * t
        steps.append(torch.stack([torch.cos(h), torch.sin(h)], -1) * speed.unsqueeze(-1))
    vel = torch.stack(steps, 1) + 0.03 * torch.randn(n, T, PEDS, 2)
    traj = pos0.unsqueeze(1) + vel.cumsum(1)               # (n, T, peds, 2)
    rel = torch.cat([torch.zeros(n, 1, PEDS, 2), traj[:, 1:] - traj[:, :-1]], 1)
    obs_abs = traj[:, :OBS]
    dist = (obs_abs.unsqueeze(3) - obs_abs.unsqueeze(2)).norm(dim=-1)
    A = torch.where(dist > 0, 1.0 / dist.clamp(min=1e-6), torch.zeros_like(dist)) + torch.eye(PEDS)
    deg = A.sum(-1)
    A = A / (deg.unsqueeze(-1).sqrt() * deg.unsqueeze(-2).sqrt())
    return rel[:, :OBS].permute(0, 3, 1, 2), A, rel[:, OBS:], traj


class STGCN(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.gcn = nn.Conv2d(cin, cout, 1)
        self.tcn = nn.Sequential(nn.BatchNorm2d(cout), nn.PReLU(), nn.Conv2d(cout, cout, (3, 1), padding=(1, 0)),
                                 nn.BatchNorm2d(cout))
        self.res = nn.Conv2d(cin, cout, 1)
        self.act = nn.PReLU()

    def forward(self, x, A):                     # x: (B, C, T, N), A: (B, T, N, N)
        h = torch.einsum("bctn,btnm->bctm", self.gcn(x), A)
        return self.act(self.tcn(h) + self.res(x))


class SocialSTGCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.st = STGCN(2, 5)
        self.txp = nn.ModuleList([nn.Conv2d(OBS, PRED, 3, padding=1), nn.Conv2d(PRED, PRED, 3, padding=1),
                                  nn.Conv2d(PRED, PRED, 3, padding=1)])
        self.acts = nn.ModuleList([nn.PReLU(), nn.PReLU()])

    def forward(self, x, A):
        v = self.st(x, A).permute(0, 2, 1, 3)          # (B, T_obs, 5, N)
        v = self.acts[0](self.txp[0](v))
        v = self.acts[1](self.txp[1](v)) + v
        return self.txp[2](v).permute(0, 1, 3, 2)      # (B, T_pred, N, 5)


def bivariate_loss(V_pred, V_trgt):
    normx = V_trgt[..., 0] - V_pred[..., 0]
    normy = V_trgt[..., 1] - V_pred[..., 1]
    sx, sy = torch.exp(V_pred[..., 2]), torch.exp(V_pred[..., 3])
    corr = torch.tanh(V_pred[..., 4])
    sxsy = sx * sy
    z = (normx / sx) ** 2 + (normy / sy) ** 2 - 2 * ((corr * normx * normy) / sxsy)
    neg_rho = 1 - corr ** 2
    result = torch.exp(-z / (2 * neg_rho))
    denom = 2 * math.pi * (sxsy * torch.sqrt(neg_rho))
    result = result / denom
    result = -torch.log(torch.clamp(result, min=1e-20))
    return result.mean()


x, A, y, traj = make_scenes(2400)
tr, te = slice(0, 2000), slice(2000, 2400)
loader = DataLoader(TensorDataset(x[tr], A[tr], y[tr]), batch_size=32, shuffle=True)
model = SocialSTGCNN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)

for epoch in range(8):
    model.train()
    total, count = 0.0, 0
    for xb, Ab, yb in loader:
        loss = bivariate_loss(model(xb, Ab), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} nll {total / count:.4f}")

model.eval()
with torch.no_grad():
    mu = model(x[te], A[te])[..., :2]
    final = traj[te][:, OBS - 1] + mu.sum(1)
    fde = (final - traj[te][:, -1]).norm(dim=-1)
    acc = (fde < 1.0).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
