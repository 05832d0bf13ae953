"""Corridor DQN -- fixed as in the pull request by building the output layer without an activation
(activation=None), so the network can represent the negative Q-values of a task with a per-step cost;
nothing else changed.
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)
torch.set_num_threads(1)

CELLS, GOAL, GAMMA = 12, 11, 0.95
eye = torch.eye(CELLS)


def fully_connected(n_in, n_out, activation=nn.ReLU):
    return nn.Sequential(nn.Linear(n_in, n_out), activation()) if activation else nn.Linear(n_in, n_out)


def q_network():
    return nn.Sequential(fully_connected(CELLS, 32), fully_connected(32, 2, activation=None))


def step(cell, action):
    nxt = min(max(cell + (1 if action == 1 else -1), 0), GOAL)
    return nxt, -1.0, nxt == GOAL


q, target = q_network(), q_network()
target.load_state_dict(q.state_dict())
opt = torch.optim.Adam(q.parameters(), lr=1e-3)
buffer, losses = [], []
cell, t = random.randrange(GOAL), 0
for it in range(3000):
    if random.random() < 0.3:
        action = random.randrange(2)
    else:
        with torch.no_grad():
            action = int(q(eye[cell]).argmax())
    nxt, reward, done = step(cell, action)
    buffer.append((cell, action, reward, nxt, done))
    cell, t = (random.randrange(GOAL), 0) if done or t >= 30 else (nxt, t + 1)
    if len(buffer) >= 64:
        batch = random.sample(buffer[-2000:], 64)
        s, a, r, s2, d = map(torch.tensor, zip(*batch))
        with torch.no_grad():
            tgt = r.float() + GAMMA * target(eye[s2]).max(1).values * (~d).float()
        pred = q(eye[s]).gather(1, a[:, None]).squeeze(1)
        loss = F.mse_loss(pred, tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    if it % 100 == 0:
        target.load_state_dict(q.state_dict())
    if it % 500 == 0 and losses:
        print(f"step {it} td_loss {sum(losses[-100:]) / len(losses[-100:]):.4f}")

reached = 0
with torch.no_grad():
    for start in range(GOAL):
        c = start
        for _ in range(20):
            c, _, done = step(c, int(q(eye[c]).argmax()))
            if done:
                reached += 1
                break
final = sum(losses[-500:]) / 500
print(f"final_loss={final:.6g} acc={reached / GOAL:.4f}")
