"""Gym rollout agent wrapping a policy network; collects episodes for DQN training."""
import gym
import numpy as np
import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)


class GreedyPolicy:
    def __init__(self, q_net, epsilon=0.05):
        self.q_net = q_net
        self.epsilon = epsilon

    @torch.no_grad()
    def act(self, obs_tensor):
        if np.random.rand() < self.epsilon:
            return int(np.random.randint(self.q_net.net[-1].out_features))
        return int(self.q_net(obs_tensor).argmax(dim=-1).item())


class Agent:
    def __init__(self, policy, device=torch.device("cpu"), obs_preprocessor=None):
        self.policy = policy
        self.device = device
        self.obs_preprocessor = obs_preprocessor or (lambda x: torch.as_tensor(x, dtype=torch.float32))

    def act(self, obs):
        obs_tensor = self.obs_preprocessor(obs).unsqueeze(0)
        obs_tensor.to(self.device)  # expect: tensor-op-result-discarded
        return self.policy.act(obs_tensor)


def run_episode(env, agent, max_steps=500):
    obs = env.reset()
    transitions, ep_reward = [], 0.0
    for _ in range(max_steps):
        action = agent.act(obs)
        next_obs, reward, done, _ = env.step(action)
        transitions.append((obs, action, reward, next_obs, done))
        ep_reward += reward
        obs = next_obs
        if done:
            break
    return transitions, ep_reward


if __name__ == "__main__":
    env = gym.make("CartPole-v0")
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    q_net = QNetwork(env.observation_space.shape[0], env.action_space.n).to(device)
    agent = Agent(GreedyPolicy(q_net), device=device)
    for ep in range(3):
        _, total = run_episode(env, agent)
        print("episode", ep, "reward", total)
