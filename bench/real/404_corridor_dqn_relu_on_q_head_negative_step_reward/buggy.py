"""Deep Q-learning agent for a 12-cell corridor: the agent starts in a random cell and must walk right to the goal cell, paying a reward of -1 for every step (so every true Q-value is negative). The Q-network is an MLP on the one-hot cell (12 -> 32 ReLU -> 2 action values) built with a fully-connected helper whose default activation, a ReLU, is also applied to the output layer, as in the report. Training: epsilon-greedy exploration (0.3), a replay buffer, Adam lr 1e-3, batches of 64, gamma 0.95, a target network synced every 100 steps, 3,000 environment steps. Every TD target is negative, so the output pre-activations are pushed below zero where the ReLU outputs exactly 0 and passes no gradient: both action values die at 0 for every cell, the greedy policy breaks the tie towards "left" and the agent never reaches the goal.

Source: https://github.com/dennybritz/reinforcement-learning/pull/104 (activation fn from relu to None)
Report: "At `self.predictions = tf.contrib.layers.fully_connected(fc1, len(VALID_ACTIONS))` Default
activation_fn will be Relu, which prevents giving negative value predictions, critical at games like Pong
where there are negative state values." -- a later comment: "Since the reward would be negative which would
lead to some negative Q-values, the last fully connect layer should not have the activation function of
relu." Reproduced with the corridor above. The printed loss is the mean TD loss over the last 500 updates,
`acc` the fraction of the 11 start cells from which the greedy policy reaches the goal within 20 steps.

expect: dead-relu
symptom: acc-below 0.5
batch: 24
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
    return nn.Sequential(fully_connected(CELLS, 32), fully_connected(32, 2))


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
