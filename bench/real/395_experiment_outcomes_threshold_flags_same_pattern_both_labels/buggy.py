"""Lab-experiment success classifier: each experiment has six sensor measurements, and the program feeds the network only whether each measurement "hit its threshold" (six 0/1 flags), the encoding the report describes. Success actually depends on how far the measurements are from their thresholds, so thousands of runs share one of only 64 flag patterns while having different outcomes: the same input appears with label 1 and with label 0 over and over. A 6 -> 32 -> 32 -> 1 MLP trained full-batch with Adam (lr 1e-2, 300 steps) on binary cross-entropy can only learn the success rate of each pattern, and the loss stays high.

Source: https://stats.stackexchange.com/questions/242124/how-to-use-real-data-for-neural-nets-without-clear-input-boundaries (How to use real data for neural nets without clear input boundaries)
Report: "I have 1000's of experiments that have features and these features either hit a threshold or
don't. I know if the experiments are success' or not, but since the data is noisy I can have two inputs
map to different outputs, e.g., [1,1,0,0,0,1] -> 1 [1,1,0,0,0,1] -> 0". Reproduced with 6,000 synthetic
experiments (six standard-normal measurements, success when a weighted sum of them exceeds a cut, 3%
of outcomes flipped) encoded as threshold flags (measurement > 0). The printed loss is the
binary cross-entropy on 2,000 held-out experiments, `acc` their accuracy.

expect: label-conflict
symptom: final-loss-ratio 2
batch: 24
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

weights = torch.tensor([1.5, -1.0, 0.8, 2.0, -0.6, 1.2])


def run_experiments(n):
    m = torch.randn(n, 6)
    success = (m @ weights > 0.3).float()
    flip = torch.rand(n) < 0.03
    success[flip] = 1 - success[flip]
    return m, success


def encode(m):
    return (m > 0).float()


m_train, y_train = run_experiments(6000)
m_test, y_test = run_experiments(2000)
X_train, X_test = encode(m_train), encode(m_test)

model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(300):
    loss = F.binary_cross_entropy_with_logits(model(X_train).squeeze(1), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} bce {loss.item():.4f}")

with torch.no_grad():
    logits = model(X_test).squeeze(1)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
