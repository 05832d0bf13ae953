"""Basket-total regressor written from scratch as a tiny network: five item quantities (positive integers 1-10) in, one hidden layer of 6 ReLU units, one linear output that should learn the total; squared error, plain SGD lr 0.004 with one example per step, 3 passes over 2,000 baskets. The inputs are all positive and large, so the first per-example updates are big; they push every hidden unit's weights and bias negative, and since every input is positive each unit's pre-activation is then negative for every basket. A dead ReLU outputs 0 and passes no gradient, so the hidden layer never recovers and the network ends up predicting one constant -- the output bias -- for every input.

Source: https://ai.stackexchange.com/questions/28864/relu-function-converging-to-local-optimum-in-one-case-and-diverging-in-the-other (ReLU function converging to local optimum in one case and diverging in the other one)
Report: "I expected the network to learn the sum function. However, the network ended up learning a constant
function i.e weights were all negative for first layer and the bias values were negative numbers, thus
application of ReLU function to it resulted in all 0's. Thus the output was simply the bias values for output
layer" -- 5 inputs, a small ReLU hidden layer, a linear output, squared error. Reproduced with synthetic
baskets and the network above. The printed loss is the mean squared error on 500 held-out baskets, `acc` the
fraction of them predicted within 2 of the true total.

expect: dead-relu
symptom: acc-below 0.5
batch: 22
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ITEMS, HIDDEN = 5, 6


def make_baskets(n):
    x = torch.randint(1, 11, (n, ITEMS)).float()
    return x, x.sum(1, keepdim=True)


X, y = make_baskets(2000)
X_test, y_test = make_baskets(500)
model = nn.Sequential(nn.Linear(ITEMS, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.004)

for epoch in range(3):
    total = 0.0
    for i in torch.randperm(len(X)).tolist():
        loss = ((model(X[i:i + 1]) - y[i:i + 1]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} train mse {total / len(X):.3f}")

with torch.no_grad():
    pred = model(X_test)
    test_mse = ((pred - y_test) ** 2).mean().item()
    acc = ((pred - y_test).abs() < 2).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
