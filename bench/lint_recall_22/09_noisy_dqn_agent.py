import math

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class NoisyLinear(nn.Module):
    def __init__(self, in_features, out_features, std_init=0.5):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.empty(out_features, in_features))
        self.register_buffer("weight_epsilon", torch.empty(out_features, in_features))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        self.register_buffer("bias_epsilon", torch.empty(out_features))
        bound = 1 / math.sqrt(in_features)
        self.weight_mu.data.uniform_(-bound, bound)
        self.weight_sigma.data.fill_(std_init / math.sqrt(in_features))
        self.bias_mu.data.uniform_(-bound, bound)
        self.bias_sigma.data.fill_(std_init / math.sqrt(out_features))
        self.reset_noise()

    def reset_noise(self):
        self.weight_epsilon.normal_()
        self.bias_epsilon.normal_()

    def forward(self, x):
        if self.training:
            w = self.weight_mu + self.weight_sigma * self.weight_epsilon
            b = self.bias_mu + self.bias_sigma * self.bias_epsilon
        else:
            w, b = self.weight_mu, self.bias_mu
        return F.linear(x, w, b)


class NoisyQNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.feature = nn.Linear(obs_dim, 128)
        self.noisy1 = NoisyLinear(128, 128)
        self.noisy2 = NoisyLinear(128, n_actions)

    def forward(self, x):
        return self.noisy2(F.relu(self.noisy1(F.relu(self.feature(x)))))

    def reset_noise(self):
        self.noisy1.reset_noise()
        self.noisy2.reset_noise()


class Agent:
    def __init__(self, env: gym.Env, gamma=0.99, lr=1e-3, device="cpu"):
        self.env = env
        self.device = device
        self.gamma = gamma
        self.dqn = NoisyQNet(env.observation_space.shape[0], env.action_space.n).to(device)
        self.optimizer = optim.Adam(self.dqn.parameters(), lr=lr)

    def select_action(self, state):
        q = self.dqn(torch.FloatTensor(state).to(self.device))
        return q.argmax().item()

    def update(self, s, a, r, s2, done, target):
        q = self.dqn(s).gather(1, a)
        with torch.no_grad():
            q_next = target(s2).max(dim=1, keepdim=True)[0]
            y = r + self.gamma * q_next * (1 - done)
        loss = F.smooth_l1_loss(q, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.dqn.reset_noise()
        return loss.item()

    def test(self, episodes=5):
        scores = []
        with torch.no_grad():
            for _ in range(episodes):
                state, _ = self.env.reset()
                done, score = False, 0.0
                while not done:
                    q = self.dqn(torch.FloatTensor(state).to(self.device))  # expect: validation-in-train-mode
                    action = q.argmax().item()
                    state, reward, terminated, truncated, _ = self.env.step(action)
                    done = terminated or truncated
                    score += reward
                scores.append(score)
        return float(np.mean(scores))
