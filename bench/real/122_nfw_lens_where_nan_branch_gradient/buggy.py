"""Physics-informed network fitting NFW dark-matter halo lenses whose deflection profile picks its x<1 / x>1 formula with torch.where: the unused branch takes sqrt of a negative number, the forward pass is finite but every backward pass returns NaN gradients.

Source: https://github.com/Ciela-Institute/caustics/pull/83 (Fix nan gradients in NFW and TNFW)
Report: "It turns out that torch.where does not protect from nans in the off branch ... So nan's
are somehow magically avoided in the forward pass when they probably shouldn't be, but in the
backward pass there is no avoiding them"; the fix stopped evaluating the invalid branch on the
out-of-domain inputs. Reproduced with the NFW lensing function written as in the library (x = r
/ r_s; h(x) = ln(x/2) + where(x < 1, 2/sqrt(1-x^2) atanh(sqrt((1-x)/(1+x))), 2/sqrt(x^2-1)
atan(sqrt((x-1)/(x+1)))); deflection = A h(x) / x) inside a small amortised inference model: an
MLP reads a noisy deflection profile sampled at 32 radii and predicts the halo's log amplitude
and log scale radius, trained with Adam on the physics loss (MSE between the NFW profile of its
prediction and the observed one) over synthetic halos; `acc` is the share of test halos whose
scale radius is recovered within 20 %.

expect: unstable-op
symptom: nonfinite
batch: 6
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

R = torch.logspace(-1, 1, 32)                    # radii (arcsec) where the deflection is measured


def _h(x):
    lt = 2 / torch.sqrt(1 - x ** 2) * torch.atanh(torch.sqrt((1 - x) / (1 + x)))
    gt = 2 / torch.sqrt(x ** 2 - 1) * torch.atan(torch.sqrt((x - 1) / (x + 1)))
    return torch.log(x / 2) + torch.where(x < 1, lt, gt)


def nfw_deflection(log_amp, log_rs):
    x = R / log_rs.exp().unsqueeze(-1)
    x = torch.where((x - 1).abs() < 1e-4, x + 2e-4, x)       # step over the removable point x = 1
    return log_amp.exp().unsqueeze(-1) * _h(x) / x


def make_halos(n):
    log_amp = 0.3 * torch.randn(n)
    log_rs = torch.log(torch.empty(n).uniform_(0.5, 4.0))
    obs = nfw_deflection(log_amp, log_rs)
    return obs + 0.01 * obs.abs().mean(1, keepdim=True) * torch.randn_like(obs), log_amp, log_rs


net = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 2))
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
train_obs, _, _ = make_halos(3000)
test_obs, _, test_log_rs = make_halos(500)
scale = train_obs.abs().mean()
for epoch in range(15):
    perm = torch.randperm(len(train_obs))
    total = 0.0
    for i in range(0, len(perm), 64):
        obs = train_obs[perm[i:i + 64]]
        log_amp, log_rs = net(obs / scale).unbind(-1)
        loss = F.mse_loss(nfw_deflection(log_amp, log_rs), obs) / scale ** 2
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(obs)
    with torch.no_grad():
        _, pred_log_rs = net(test_obs / scale).unbind(-1)
        acc = ((pred_log_rs - test_log_rs).abs() < 0.18).float().mean().item()
    print(f"epoch {epoch} physics loss {total / len(train_obs):.5f} test r_s within 20% {acc:.4f}")
print(f"final_loss={total / len(train_obs):.6g} acc={acc:.4f}")
