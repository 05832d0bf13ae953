"""DQN agent whose loss clips the TD error before squaring it: every transition whose error exceeds 1 contributes a zero gradient.

Source: https://github.com/devsisters/DQN-tensorflow/issues/16 (A bug in the implementation)
Report (Karpathy): "The code tries to clip the self.delta with tf.clip_by_value ... However, the
clip_by_value function's local gradient outside of the min_delta, max_delta range is zero.
Therefore, with the current code whenever the discrepancy is above min/max delta, the gradient
becomes exactly zero in backprop ... you probably want to clip the gradient here, not the raw
Q. In that case you would have to use the Huber loss"; the maintainer fixed it. Reproduced with
the repository's loss, mean(square(clip(target - q, -1, 1))), in a torch DQN (epsilon-greedy,
replay memory, batch 32, target network, RMSprop(momentum=0.95, eps=0.01)) on a small
vectorised "treasure corridor" game scored in game points (+10 treasure, -10 pit, -0.1 per
move); `acc` is the share of corridor cells whose learned Q(s, right) is within 2 points of its
true value.

expect: loss-mismatch
symptom: acc-below 0.5
batch: 5
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LENGTH, N_ENVS, GAMMA = 12, 16, 0.99
min_delta, max_delta = -1.0, 1.0


def reset(n):
    return torch.randint(1, LENGTH - 1, (n,))


def step(pos, action):                          # action 0: left, 1: right
    pos = pos + 2 * action - 1
    reward = torch.full(pos.shape, -0.1)
    reward[pos == LENGTH - 1] = 10.0
    reward[pos == 0] = -10.0
    done = (pos == 0) | (pos == LENGTH - 1)
    return pos, reward, done


def obs(pos):
    return torch.nn.functional.one_hot(pos, LENGTH).float()


def q_network():
    return nn.Sequential(nn.Linear(LENGTH, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))


q, target_q = q_network(), q_network()
target_q.load_state_dict(q.state_dict())
optimizer = torch.optim.RMSprop(q.parameters(), lr=1e-3, momentum=0.95, eps=0.01)

memory = {k: [] for k in ("s", "a", "r", "s2", "d")}
pos = reset(N_ENVS)
losses = []
for t in range(1500):
    ep = max(0.1, 1.0 - t / 600)
    with torch.no_grad():
        greedy = q(obs(pos)).argmax(1)
    action = torch.where(torch.rand(N_ENVS) < ep, torch.randint(0, 2, (N_ENVS,)), greedy)
    new_pos, reward, done = step(pos, action)
    for k, v in zip(("s", "a", "r", "s2", "d"), (pos, action, reward, new_pos.clamp(0, LENGTH - 1), done)):
        memory[k].append(v)
    pos = torch.where(done, reset(N_ENVS), new_pos)
    if t < 50:
        continue
    idx = torch.randint(0, len(memory["s"]) * N_ENVS, (32,))
    s, a, r, s2, d = (torch.cat(memory[k])[idx] for k in ("s", "a", "r", "s2", "d"))
    q_acted = q(obs(s)).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        target_q_t = r + GAMMA * target_q(obs(s2)).max(1)[0] * (~d)
    delta = target_q_t - q_acted
    clipped_delta = torch.clamp(delta, min_delta, max_delta)
    loss = torch.mean(torch.square(clipped_delta))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if t % 50 == 0:
        target_q.load_state_dict(q.state_dict())
        print(f"step {t} loss {sum(losses[-100:]) / len(losses[-100:]):.3f}")

# value check: Q(s, right) against the true value of always moving right
with torch.no_grad():
    states = torch.arange(1, LENGTH - 1)
    q_right = q(obs(states))[:, 1]
    n = (LENGTH - 1 - states).float()                      # moves to the treasure
    true_v = -0.1 * (1 - GAMMA ** (n - 1)) / (1 - GAMMA) + GAMMA ** (n - 1) * 10.0
    acc = ((q_right - true_v).abs() < 2.0).float().mean().item()
print(f"final_loss={sum(losses[-200:]) / 200:.6g} acc={acc:.4f}")
