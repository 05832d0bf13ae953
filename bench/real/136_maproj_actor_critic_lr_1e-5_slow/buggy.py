"""Multi-agent actor-critic (per-agent policy networks, a centralised critic on the joint observation, advantage = discounted return - V) on a cooperative navigation task with actor and critic learning rates of 1e-5: after all updates the agents still wander almost randomly and end far from their landmarks.

Source: https://github.com/isp1tze/MAProj/issues/3 (Learning rates are too small)
Report: "The learning rate for actor and critic is too small, it takes a very long time to
converge. Maybe change it as 0.01". Reproduced with the usual structure of such a multi-agent
actor-critic project (an Agent class per agent with its own actor and Adam optimizer, a
centralised critic, vectorised environments rolled out for a fixed horizon, returns-to-go,
policy-gradient loss with an entropy bonus, critic MSE) on a particle-style cooperative
navigation task: 2 agents in the unit square, each assigned a landmark, 5 discrete moves, shared
reward = minus the summed distances, 15-step episodes, 64 parallel environments per update. Both
learning rates are 1e-5. The printed loss is the mean final distance of the agents to their
landmarks over the last 10 updates, `acc` the share of greedy evaluation episodes in which both
agents end within 0.15 of their landmarks.

expect: lr-too-low
symptom: loss-above 0.7
batch: 7
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_AGENTS, N_ENVS, HORIZON, GAMMA = 2, 64, 15, 0.95
LR_ACTOR, LR_CRITIC = 1e-5, 1e-5
MOVES = torch.tensor([[0.0, 0.0], [0.1, 0.0], [-0.1, 0.0], [0.0, 0.1], [0.0, -0.1]])


class CoopNavigation:
    def reset(self, n):
        self.pos = torch.rand(n, N_AGENTS, 2) * 2 - 1
        self.goal = torch.rand(n, N_AGENTS, 2) * 2 - 1
        return self.observe()

    def observe(self):
        n = self.pos.shape[0]
        obs = []
        for i in range(N_AGENTS):
            rel_goal = self.goal[:, i] - self.pos[:, i]
            others = (self.pos - self.pos[:, i:i + 1]).reshape(n, -1)
            obs.append(torch.cat([self.pos[:, i], rel_goal, others], 1))
        return obs

    def step(self, actions):
        for i, a in enumerate(actions):
            self.pos[:, i] = (self.pos[:, i] + MOVES[a]).clamp(-1, 1)
        dist = (self.pos - self.goal).norm(dim=2)
        return self.observe(), -dist.sum(1), dist


class Agent:
    def __init__(self, obs_dim):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 5))
        self.optimizer = torch.optim.Adam(self.actor.parameters(), lr=LR_ACTOR)

    def act(self, obs, greedy=False):
        dist = torch.distributions.Categorical(logits=self.actor(obs))
        a = dist.probs.argmax(1) if greedy else dist.sample()
        return a, dist.log_prob(a), dist.entropy()


env = CoopNavigation()
obs_dim = 4 + 2 * N_AGENTS
agents = [Agent(obs_dim) for _ in range(N_AGENTS)]
critic = nn.Sequential(nn.Linear(N_AGENTS * obs_dim, 128), nn.Tanh(), nn.Linear(128, 1))
critic_opt = torch.optim.Adam(critic.parameters(), lr=LR_CRITIC)

final_dists = []
for update in range(150):
    obs = env.reset(N_ENVS)
    logps, ents, values, rewards = [], [], [], []
    for t in range(HORIZON):
        acts = [agent.act(o) for agent, o in zip(agents, obs)]
        values.append(critic(torch.cat(obs, 1)).squeeze(1))
        obs, r, dist = env.step([a for a, _, _ in acts])
        logps.append(torch.stack([lp for _, lp, _ in acts], 1))
        ents.append(torch.stack([e for _, _, e in acts], 1))
        rewards.append(r)
    returns, g = [], torch.zeros(N_ENVS)
    for r in reversed(rewards):
        g = r + GAMMA * g
        returns.insert(0, g)
    returns, values = torch.stack(returns), torch.stack(values)
    adv = (returns - values).detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    actor_loss = -(torch.stack(logps) * adv.unsqueeze(-1)).mean() - 0.01 * torch.stack(ents).mean()
    critic_loss = (returns - values).pow(2).mean()
    for agent in agents:
        agent.optimizer.zero_grad()
    critic_opt.zero_grad()
    (actor_loss + critic_loss).backward()
    for agent in agents:
        agent.optimizer.step()
    critic_opt.step()
    final_dists.append(dist.mean().item())
    if update % 30 == 0:
        print(f"update {update} return {torch.stack(rewards).sum(0).mean().item():.3f} final_dist {final_dists[-1]:.3f}")

with torch.no_grad():
    obs = env.reset(256)
    for t in range(HORIZON):
        obs, _, dist = env.step([agent.act(o, greedy=True)[0] for agent, o in zip(agents, obs)])
    acc = (dist < 0.15).all(1).float().mean().item()
print(f"final_loss={sum(final_dists[-10:]) / 10:.6g} acc={acc:.4f}")
