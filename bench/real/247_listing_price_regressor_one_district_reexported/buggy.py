"""Apartment-price regressor for a listings dashboard (6 tabular features, a linear model on
standardised features, full-batch Adam on the MSE) trained on a scrape in which one district's
listings were exported again on every nightly run: its 40 listings appear 150 times each, 6,000
exact duplicate rows next to 2,000 genuine listings. A model this simple must compromise across
the city, and the duplicates make one district outweigh all others combined -- the fit bends to
that district's price structure and is clearly worse for the rest of the city.

Source: https://github.com/cleanlab/cleanlab/pull/913 (Add a section to FAQs on handling near-duplicate examples)
Report: "should clarify near-duplicates can cause models/analytics to unexpectedly emphasize
examples in the dataset that were accidentally duplicated. Should remove the (near) duplicate
copies in this case." Reproduced with 2,000 synthetic listings (area, rooms, floor, age, distance
to centre, renovation flag; log price depends on area and age linearly and on distance
non-linearly, so a linear model has to trade districts off), one far-out district's 40 listings
repeated 150 times, standardised features, nn.Linear(6, 1) plus the mean log price, Adam lr 0.01,
400 full-batch steps. The
printed loss is the MSE of log price on 1,000 fresh listings from the whole city, `acc` the
fraction of them predicted within 15% of the price.

expect: data-duplicates
symptom: final-loss-ratio 1.15
batch: 14
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


def listings(n, distance=None):
    area = 30 + 90 * torch.rand(n)
    rooms = (area / 25 + torch.rand(n)).floor()
    floor = torch.randint(0, 12, (n,)).float()
    age = 60 * torch.rand(n)
    dist = 15 * torch.rand(n) if distance is None else distance + 0.5 * torch.rand(n)
    renovated = (torch.rand(n) < 0.3).float()
    x = torch.stack([area, rooms, floor, age, dist, renovated], 1)
    log_price = 11 + 0.012 * area - 0.004 * age + 0.1 * renovated + 1.5 * torch.exp(-dist / 3) - 0.02 * dist
    return x, log_price + 0.05 * torch.randn(n)


x_city, y_city = listings(2000)
x_far, y_far = listings(40, distance=14.0)
x_train = torch.cat([x_city] + [x_far] * 150)
y_train = torch.cat([y_city] + [y_far] * 150)
x_test, y_test = listings(1000)

mu, sd, y_mu = x_train.mean(0), x_train.std(0), y_train.mean()
model = nn.Linear(6, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(400):
    loss = F.mse_loss(model((x_train - mu) / sd).squeeze(1) + y_mu, y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} train mse {loss.item():.5f}")

with torch.no_grad():
    pred = model((x_test - mu) / sd).squeeze(1) + y_mu
    test_mse = F.mse_loss(pred, y_test).item()
    acc = ((pred - y_test).abs() < 0.14).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
