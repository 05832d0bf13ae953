"""Two-marker lab-panel screen: a binary classifier reads two always-positive blood markers (raw concentrations) and passes them through a narrow ReLU bottleneck (2 -> 4 ReLU units -> 1 logit, BCE). Because every input is positive, a hidden unit whose incoming weights are both pushed negative outputs 0 for every patient, receives zero gradient, and can never come back; the per-sample SGD updates at lr 0.3 on inputs of this size push the units over that edge within the first epoch, after which the logit is a constant and every patient is assigned to the same class.

Source: https://stats.stackexchange.com/questions/450100/understanding-relu-does-this-unlucky-intialized-network-assign-all-instances (Understanding ReLU: does this unlucky intialized network assign all instances to one class?)
Report: "Suppose we have a dataset with two features that are always positive for all instances ...
Hidden Layer: 1 neuron, activation=ReLU ... Would the hidden layer neuron be dead forever if its two
weights were randomly initialized negative? ... all instances are assigned to class 1" (answer:
"once the neuron parameters are pushed out of the data region, they're dead forever. This is dying
ReLU problem, which is addressed by leaky ReLU activation."). Reproduced with 2,000 synthetic
patients (two positive markers around 2-8 units; disease when their ratio is high), the 2-4-1
network above with uniform(-0.5, 0.5) init, plain SGD lr 0.3 (halved every epoch) on single
samples for 5 epochs. The printed loss is the BCE on 600 held-out patients, `acc` the accuracy there.

expect: dead-relu
symptom: acc-below 0.7
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


def patients(n):
    a = 2 + 6 * torch.rand(n)
    b = 2 + 6 * torch.rand(n)
    y = ((a / b + 0.15 * torch.randn(n)) > 1.0).float()
    return torch.stack([a, b], 1), y


X_train, y_train = patients(2000)
X_test, y_test = patients(600)

model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for p in model.parameters():
        p.uniform_(-0.5, 0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)

for epoch in range(5):
    total = 0.0
    for i in torch.randperm(len(X_train)).tolist():
        loss = F.binary_cross_entropy_with_logits(model(X_train[i:i + 1]).squeeze(1), y_train[i:i + 1])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    with torch.no_grad():
        logits = model(X_test).squeeze(1)
        test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
        acc = ((logits > 0).float() == y_test).float().mean().item()
    print(f"epoch {epoch} train {total / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
