"""Trajectory collection for an on-policy agent (A2C / PPO / TRPO share this sampler)."""
import time

import numpy as np
import torch
from torch.autograd import Variable


class Memory:
    def __init__(self):
        self.memory = []

    def push(self, *transition):
        self.memory.append(transition)

    def sample(self):
        return list(zip(*self.memory))

    def __len__(self):
        return len(self.memory)


def collect_samples(env, policy, min_batch_size, running_state=None, mean_action=False, render=False):
    memory = Memory()
    num_steps, num_episodes = 0, 0
    total_reward, min_reward, max_reward = 0.0, 1e6, -1e6
    t0 = time.time()
    while num_steps < min_batch_size:
        state, _ = env.reset()
        if running_state is not None:
            state = running_state(state)
        reward_episode = 0.0
        for t in range(10000):
            state_var = Variable(torch.Tensor(state).unsqueeze(0), volatile=True)  # expect: volatile-variable
            if mean_action:
                action = policy(state_var)[0].data[0].numpy()
            else:
                action = policy.select_action(state_var)[0].numpy()
            action = action.astype(np.float64)
            next_state, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            reward_episode += reward
            if running_state is not None:
                next_state = running_state(next_state)
            mask = 0 if done else 1
            memory.push(state, action, mask, next_state, reward)
            if render:
                env.render()
            if done:
                break
            state = next_state
        num_steps += t + 1
        num_episodes += 1
        total_reward += reward_episode
        min_reward = min(min_reward, reward_episode)
        max_reward = max(max_reward, reward_episode)
    log = {
        "num_steps": num_steps,
        "num_episodes": num_episodes,
        "avg_reward": total_reward / max(num_episodes, 1),
        "min_reward": min_reward,
        "max_reward": max_reward,
        "sample_time": time.time() - t0,
    }
    return memory, log

