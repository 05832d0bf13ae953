"""Monthly-rent estimator built like a brain.js NeuralNetwork: an all-sigmoid 3-8-1 perceptron (sigmoid hidden and output units, MSE, per-example SGD with learning rate 0.3 and momentum 0.1) maps bedrooms, bathrooms and square feet to rent (the rent target is already divided by 10,000 so it fits the sigmoid output). The input features are fed raw: square footage in the thousands drives every hidden pre-activation to hundreds or thousands, so each hidden sigmoid sits flat at 0 or 1 for all houses, its derivative is ~0, and the network cannot learn how rent depends on the features -- it settles on nearly the same output for every listing.

Source: https://github.com/BrainJS/brain.js/issues/195 (Output (almost) always returns "0" when running a network)
Report: the network was trained on raw listings such as "{input: { bedrooms: 3, bathrooms: 2, sqft: 1421 },
output: { cost: 1692 }}" and its output barely varied; the answer: "the activation functions work best when
inputs are between 0 and 1 (and same with the outputs). So, if you just divide the input values by the max
seen (or just some arbitrarily high value), you can normalize them" -- `datum.input.bedrooms /= 10;
datum.input.bathrooms /= 10; datum.input.sqft /= 10000;`. Reproduced with 400 synthetic listings
(rent = 300 + 0.75 x sqft + 90 x bathrooms + noise), the network above, 40 epochs. The printed loss is
the validation MSE (in rent / 10,000 units) on 200 held-out listings, `acc` the fraction of held-out
listings predicted within 10% of their rent.

expect: saturated-activation
symptom: acc-below 0.5
batch: 20
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def listings(n):
    bedrooms = torch.randint(1, 6, (n,)).float()
    bathrooms = torch.randint(1, 4, (n,)).float()
    sqft = 350 * bedrooms + 200 * bathrooms + 300 * torch.rand(n) + 200
    rent = 300 + 0.75 * sqft + 90 * bathrooms + 60 * torch.randn(n)
    return torch.stack([bedrooms, bathrooms, sqft], 1), rent


def prepare(features, rent):
    x = features.clone()
    return x, rent / 10000


X_train, Y_train = prepare(*listings(400))
X_val, Y_val = prepare(*listings(200))
net = nn.Sequential(nn.Linear(3, 8), nn.Sigmoid(), nn.Linear(8, 1), nn.Sigmoid())
opt = torch.optim.SGD(net.parameters(), lr=0.3, momentum=0.1)

for epoch in range(40):
    total = 0.0
    for i in torch.randperm(len(X_train)).tolist():
        loss = ((net(X_train[i:i + 1]).squeeze(1) - Y_train[i:i + 1]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    with torch.no_grad():
        pred = net(X_val).squeeze(1)
    val = ((pred - Y_val) ** 2).mean().item()
    acc = ((pred - Y_val).abs() < 0.1 * Y_val).float().mean().item()
    if epoch % 5 == 4:
        print(f"epoch {epoch} train {total / len(X_train):.6f} val {val:.6f} acc {acc:.3f} pred std {pred.std():.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
