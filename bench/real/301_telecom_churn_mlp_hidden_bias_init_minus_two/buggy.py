"""Telecom churn classifier: a two-hidden-layer ReLU MLP on 14 standardised account features (tenure, monthly charges, support calls, contract flags ...), binary cross-entropy, Adam, full-batch epochs. A custom weight-init routine sets every hidden bias to -2.0 ("sparse activations"); with the default weight scale the pre-activations w.x + b of the hidden units are then negative for essentially every customer, each ReLU outputs zero and passes no gradient, nothing upstream of the output bias ever moves, and the model settles on predicting the churn base rate for everybody.

Source: https://medium.com/joelthchao/how-dead-neurons-hurt-training-5fc127d8db6a (How Dead Neurons Hurt Deep Learning Training ?)
Report: "Build a classification model with one hidden layer. Initialize b with extremely negative
value, to simulate situation which might caused by huge learning rate or improper weight
initialization. ... We can observe that negative b initial value results in higher 'failure rate'
and lower average accuracy. Unless wx have large enough value to help gradient get out of zero,
negative b keep the model away from being updated ... slightly positive b help model to train
better. That's why some networks initialize b with 0.01 rather than zero." Reproduced with 10,000
synthetic customers (churn about 30%, driven non-linearly by tenure, charges and support calls), an
MLP 14-32-32-1 whose hidden biases are initialised to -2.0, Adam lr 0.01, 80 full-batch steps. The
printed loss is the BCE on 2,000 held-out customers, `acc` the balanced accuracy there.

expect: dead-relu
symptom: acc-below 0.6
batch: 18
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


def customers(n):
    x = torch.randn(n, 14)
    tenure, charges, calls, contract = x[:, 0], x[:, 1], x[:, 2], (x[:, 3] > 0.5).float()
    z = -1.2 - 1.1 * tenure + 0.8 * charges * (tenure < 0).float() + 0.9 * F.relu(calls) - 1.0 * contract
    z = z + 0.3 * x[:, 4] * x[:, 5]
    y = (torch.rand(n) < torch.sigmoid(2 * z)).float()
    return x, y


def balanced_acc(logits, y):
    pred = (logits > 0).float()
    tpr = (pred[y == 1] == 1).float().mean()
    tnr = (pred[y == 0] == 0).float().mean()
    return ((tpr + tnr) / 2).item()


Xtr, ytr = customers(10000)
Xte, yte = customers(2000)
model = nn.Sequential(nn.Linear(14, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))


def init_weights(m):
    if isinstance(m, nn.Linear) and m.out_features > 1:
        nn.init.constant_(m.bias, -2.0)


model.apply(init_weights)
opt = torch.optim.Adam(model.parameters(), lr=0.01)

for step in range(80):
    loss = F.binary_cross_entropy_with_logits(model(Xtr).squeeze(1), ytr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        with torch.no_grad():
            logits = model(Xte).squeeze(1)
            val = F.binary_cross_entropy_with_logits(logits, yte).item()
            bacc = balanced_acc(logits, yte)
        print(f"step {step + 1} train {loss.item():.4f} val {val:.4f} balanced_acc {bacc:.4f}")

print(f"final_loss={val:.6g} acc={bacc:.4f}")
