"""Roll out a trained Gaussian policy to save expert trajectories for GAIL."""
import argparse
import pickle

import gym
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


class Policy(nn.Module):
    def __init__(self, state_dim, action_dim, hidden_size=(64, 64), log_std=0.0):
        super().__init__()
        layers, last = [], state_dim
        for h in hidden_size:
            layers += [nn.Linear(last, h), nn.Tanh()]
            last = h
        self.affine_layers = nn.Sequential(*layers)
        self.action_mean = nn.Linear(last, action_dim)
        self.action_log_std = nn.Parameter(torch.ones(1, action_dim) * log_std)

    def forward(self, x):
        action_mean = self.action_mean(self.affine_layers(x))
        action_log_std = self.action_log_std.expand_as(action_mean)
        return action_mean, action_log_std, torch.exp(action_log_std)


class ZFilter:
    def __init__(self, mean, std, clip=10.0):
        self.mean, self.std, self.clip = mean, std, clip

    def __call__(self, x):
        return np.clip((x - self.mean) / (self.std + 1e-8), -self.clip, self.clip)


def main_loop(args, policy_net, running_state, env):
    expert_traj = []
    num_steps = 0
    for i_episode in range(args.max_episodes):
        state, _ = env.reset(seed=args.seed + i_episode)
        state = running_state(state)
        reward_episode = 0
        for t in range(10000):
            state_var = Variable(torch.from_numpy(state).double().unsqueeze(0), volatile=True)  # expect: volatile-variable
            action = policy_net(state_var)[0][0].data.numpy()
            next_state, reward, terminated, truncated, _ = env.step(action)
            next_state = running_state(next_state)
            reward_episode += reward
            num_steps += 1
            expert_traj.append(np.hstack([state, action]))
            if terminated or truncated or num_steps >= args.max_expert_state_num:
                break
            state = next_state
        print(f"Episode {i_episode}\t reward: {reward_episode:.2f}")
        if num_steps >= args.max_expert_state_num:
            break
    return np.stack(expert_traj)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--env-name", default="Hopper-v4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-episodes", type=int, default=100)
    parser.add_argument("--max-expert-state-num", type=int, default=50000)
    args = parser.parse_args()
    torch.set_default_dtype(torch.float64)
    env = gym.make(args.env_name)
    policy_net = Policy(env.observation_space.shape[0], env.action_space.shape[0]).double()
    running_state = ZFilter(np.zeros(env.observation_space.shape[0]), np.ones(env.observation_space.shape[0]))
    traj = main_loop(args, policy_net, running_state, env)
    with open(f"expert_{args.env_name}.p", "wb") as f:
        pickle.dump(traj, f)
