"""REINFORCE on CartPole whose policy loss is built from torch.tensor(log_probs): the log-probs are
copied into a new tensor cut off from the graph, so the policy gradient never reaches the net.

Source: https://github.com/kengz/SLM-Lab/pull/133 (Fix ActorCritic family)
Report: "REINFORCE and its descendants are broken (AC, PPO, SIL). root cause: `torch.tensor`
creates a brand new tensor detached from the computation graph. So no gradient update was done.
- solution: use `torch.stack` instead. - add `assert_trained` in `net_util` ... retune and retest,
confirmed cartpole solution: REINFORCE". The agent's loss also has SLM-Lab's entropy bonus, which
still has a graph, so backward() runs without an error and only the small entropy term moves the
weights. Reproduced with a CartPole written out in numpy (the classic-control equations, 200-step
episodes), a 4-64-2 softmax policy, discounted, normalised returns and Adam; the printed loss is
the per-episode policy loss and `acc` the mean return of the last 20 episodes / 200.

expect: params-not-updated
symptom: acc-below 0.3
batch: 3
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class CartPole:
    gravity, masscart, masspole, length, force_mag, tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02

    def __init__(self, rng):
        self.rng = rng

    def reset(self):
        self.state = self.rng.uniform(-0.05, 0.05, 4)
        self.t = 0
        return self.state.astype(np.float32)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        total_mass = self.masscart + self.masspole
        pml = self.masspole * self.length
        costh, sinth = math.cos(theta), math.sin(theta)
        temp = (force + pml * theta_dot ** 2 * sinth) / total_mass
        thetaacc = (self.gravity * sinth - costh * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costh ** 2 / total_mass))
        xacc = temp - pml * thetaacc * costh / total_mass
        x, x_dot = x + self.tau * x_dot, x_dot + self.tau * xacc
        theta, theta_dot = theta + self.tau * theta_dot, theta_dot + self.tau * thetaacc
        self.state = np.array([x, x_dot, theta, theta_dot])
        self.t += 1
        done = abs(x) > 2.4 or abs(theta) > 12 * 2 * math.pi / 360 or self.t >= 200
        return self.state.astype(np.float32), 1.0, done


class Reinforce:
    def __init__(self, gamma=0.99, entropy_coef=0.01, lr=1e-2):
        self.net = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2))
        self.optim = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.gamma, self.entropy_coef = gamma, entropy_coef
        self.log_probs, self.entropies, self.rewards = [], [], []

    def act(self, state):
        dist = Categorical(logits=self.net(torch.from_numpy(state)))
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        self.entropies.append(dist.entropy())
        return action.item()

    def calc_returns(self):
        rets, running = [], 0.0
        for r in reversed(self.rewards):
            running = r + self.gamma * running
            rets.insert(0, running)
        rets = torch.tensor(rets)
        return (rets - rets.mean()) / (rets.std() + 1e-8)

    def train(self):
        advs = self.calc_returns()
        log_probs = torch.stack(self.log_probs)
        policy_loss = -(log_probs * advs).sum()
        entropy = torch.stack(self.entropies).mean()
        loss = policy_loss - self.entropy_coef * entropy
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        self.log_probs, self.entropies, self.rewards = [], [], []
        return loss.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = CartPole(np.random.RandomState(args.seed))
    agent = Reinforce()
    returns, losses = [], []
    for episode in range(300):
        state, done, total = env.reset(), False, 0.0
        while not done:
            state, reward, done = env.step(agent.act(state))
            agent.rewards.append(reward)
            total += reward
        losses.append(agent.train())
        returns.append(total)
        if episode % 20 == 0:
            print(f"episode {episode} loss {losses[-1]:.4f} return {total:.0f} mean20 {np.mean(returns[-20:]):.1f}")
    print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={np.mean(returns[-20:]) / 200:.4f}")


if __name__ == "__main__":
    main()
