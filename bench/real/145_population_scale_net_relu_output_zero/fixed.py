"""Census-disaggregation scale net -- fixed as the issue proposes: the output activation is a
Softplus instead of a ReLU, so the density stays positive without a zero-gradient region;
nothing else changed.

Source: https://github.com/jvargasmu/population_estimation/issues/68 (Sometimes the initial solution predicts only zeros (due to RELU activation))
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_UNITS, PIX, F_IN = 400, 64, 5
urban = torch.rand(N_UNITS, 1, 1)
buildings = torch.poisson(urban * 12 * torch.rand(N_UNITS, PIX, 1) + 0.2)
built_area = buildings * (0.8 + 0.6 * torch.rand(N_UNITS, PIX, 1))          # 100 m^2 units
lights = (urban * 40 + 5 * torch.randn(N_UNITS, PIX, 1)).clamp(min=0)
roads = torch.poisson(urban * 6 + 0.5 * torch.ones(N_UNITS, PIX, 1))
dist = (1 - urban) * 20 + torch.rand(N_UNITS, PIX, 1) * 5                      # km
covariates = torch.cat([buildings, built_area, lights, roads, dist], dim=-1)
true_density = 0.12 * built_area.squeeze(-1) * (1 + 0.02 * lights.squeeze(-1)) + 0.02 * roads.squeeze(-1)
census = (true_density * (1 + 0.1 * torch.randn(N_UNITS, PIX))).clamp(min=0).sum(1)

perm = torch.randperm(N_UNITS)
train_ids, test_ids = perm[:320], perm[320:]


class ScaleNet(nn.Module):
    def __init__(self, f_in, hidden=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(f_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )
        self.out_act = nn.Softplus()

    def forward(self, pixels):                       # (units, pixels, features)
        return self.out_act(self.body(pixels)).squeeze(-1)


def unit_loss(model, cov, counts):
    pred_total = model(cov).sum(1)
    return (torch.log1p(pred_total) - torch.log1p(counts)).abs().mean(), pred_total


model = ScaleNet(F_IN)
optimizer = torch.optim.Adam(model.parameters(), lr=6e-2)
loader = DataLoader(TensorDataset(covariates[train_ids], census[train_ids]), batch_size=16, shuffle=True)
for epoch in range(30):
    for cov, counts in loader:
        loss, _ = unit_loss(model, cov, counts)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        test_loss, pred = unit_loss(model, covariates[test_ids], census[test_ids])
    if epoch % 5 == 0:
        print(f"epoch {epoch} test log-L1 {test_loss.item():.4f}  zero-pixel share {(model(covariates[test_ids]) == 0).float().mean().item():.2f}")

acc = ((pred - census[test_ids]).abs() <= 0.3 * census[test_ids]).float().mean().item()
print(f"final_loss={test_loss.item():.6g} acc={acc:.4f}")
