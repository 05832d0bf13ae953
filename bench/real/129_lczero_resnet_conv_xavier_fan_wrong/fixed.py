"""Leela-Chess-style residual network -- fixed as the PR did: the conv fans are receptive-field
size times channels, fan_in = kh*kw*c_in and fan_out = kh*kw*c_out (nothing else changed).

Source: https://github.com/LeelaChessZero/lczero-training/pull/43 (Fix scale of weight initialization)
Report: "The previous implementation of Xavier init is completely wrong for conv layers,
initialising values too large. This is likely the cause for the long time that a new net needs
to be trained before the mse loss drops ... For the conv layers, the stdev of the [3, 3, 256, 256]
tensor is sqrt(2 / (3 + 3 + 256 + 256)) = 0.062 when it should be sqrt(2 / (3 * 3 * 256 + 3 * 3 *
256)) = 0.021"; the PR changes the init to the correct Gaussian Xavier (as TF's and torch's).
Reproduced with tfprocess's structure in torch (an input conv, a tower of residual blocks
conv-BN-ReLU-conv-BN + skip, a policy head conv1x1-BN-ReLU-FC and a value head
conv1x1-BN-ReLU-FC-ReLU-FC-tanh; loss = policy cross-entropy + value MSE; SGD with Nesterov
momentum 0.9, lr 0.005 and L2 1e-4; every weight drawn from `weight_variable(shape)` = N(0, xavier_std))
scaled to 4 blocks x 32 filters on 8 x 8 boards with 14 input planes, on synthetic positions whose
move and result targets come from a fixed random "teacher" evaluator. The printed loss is the
mean training loss (policy + value) of the last 20 steps, `acc` the held-out policy top-1 accuracy.

expect: bad-init
symptom: final-loss-ratio 1.3
batch: 7
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

PLANES, FILTERS, BLOCKS, MOVES = 14, 32, 4, 64


def xavier_std(shape):
    """tfprocess's weight_variable: shape is [out, in, kh, kw] for convs, [out, in] for dense."""
    if len(shape) == 4:
        c_out, c_in, kh, kw = shape
        fan_in, fan_out = kh * kw * c_in, kh * kw * c_out
    else:
        fan_out, fan_in = shape
    return math.sqrt(2.0 / (fan_in + fan_out))


def make_positions(n, teacher):
    boards = torch.zeros(n, PLANES, 8, 8)
    for p in range(12):
        boards[:, p] = (torch.rand(n, 8, 8) < (0.12 if p < 2 else 0.03)).float()
    boards[:, 12] = (torch.rand(n, 1, 1) < 0.5).float()  # side to move
    boards[:, 13] = 1.0
    with torch.no_grad():
        h = torch.tanh(teacher[0](boards))
        move_logits = teacher[1](h).flatten(1) * 3
        value = torch.tanh(teacher[2](h.mean((2, 3))).squeeze(1))
    return boards, move_logits.argmax(1), value


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
        self.conv2, self.bn2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(y)) + x)


class LeelaNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.input = nn.Sequential(nn.Conv2d(PLANES, FILTERS, 3, padding=1, bias=False), nn.BatchNorm2d(FILTERS), nn.ReLU())
        self.tower = nn.Sequential(*[ResBlock(FILTERS) for _ in range(BLOCKS)])
        self.policy_conv = nn.Sequential(nn.Conv2d(FILTERS, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.policy_fc = nn.Linear(32 * 64, MOVES)
        self.value_conv = nn.Sequential(nn.Conv2d(FILTERS, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.value_fc = nn.Sequential(nn.Linear(32 * 64, 128), nn.ReLU(), nn.Linear(128, 1))
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                nn.init.normal_(m.weight, 0.0, xavier_std(tuple(m.weight.shape)))
                if m.bias is not None:
                    nn.init.zeros_(m.bias)

    def forward(self, x):
        h = self.tower(self.input(x))
        policy = self.policy_fc(self.policy_conv(h).flatten(1))
        value = torch.tanh(self.value_fc(self.value_conv(h).flatten(1))).squeeze(1)
        return policy, value


gen_state = torch.get_rng_state()
torch.manual_seed(777)
teacher = (nn.Conv2d(PLANES, 16, 5, padding=2), nn.Conv2d(16, 1, 3, padding=1), nn.Linear(16, 1))
torch.set_rng_state(gen_state)
x_train, pol_train, val_train = make_positions(4096, teacher)
x_test, pol_test, val_test = make_positions(1024, teacher)

net = LeelaNet()
optimizer = torch.optim.SGD(net.parameters(), lr=0.005, momentum=0.9, nesterov=True, weight_decay=1e-4)
losses = []
for step in range(300):
    idx = torch.randint(0, len(x_train), (64,))
    policy, value = net(x_train[idx])
    loss = F.cross_entropy(policy, pol_train[idx]) + F.mse_loss(value, val_train[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")

net.eval()
with torch.no_grad():
    acc = (net(x_test)[0].argmax(1) == pol_test).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
