"""Evaluate a trained actor-critic policy whose feature extractor uses dropout and batch norm."""
import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn


class MlpExtractor(nn.Module):
    def __init__(self, obs_dim, hidden=64, dropout=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )

    def forward(self, obs):
        return self.net(obs)


class ActorCriticPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.features = MlpExtractor(obs_dim)
        self.action_net = nn.Linear(64, n_actions)
        self.value_net = nn.Linear(64, 1)

    def forward(self, obs):
        latent = self.features(obs)
        return self.action_net(latent), self.value_net(latent)

    def predict(self, observation, deterministic=True):
        obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
        with torch.no_grad():
            logits, _ = self(obs)  # expect: validation-in-train-mode
        if deterministic:
            return int(logits.argmax(dim=-1).item())
        return int(torch.distributions.Categorical(logits=logits).sample().item())


def evaluate_policy(policy, env, n_eval_episodes=10, deterministic=True):
    episode_rewards = []
    for _ in range(n_eval_episodes):
        obs, _ = env.reset()
        done, total = False, 0.0
        while not done:
            action = policy.predict(obs, deterministic=deterministic)
            obs, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
        episode_rewards.append(total)
    return float(np.mean(episode_rewards)), float(np.std(episode_rewards))


if __name__ == "__main__":
    env = gym.make("CartPole-v1")
    policy = ActorCriticPolicy(env.observation_space.shape[0], env.action_space.n)
    policy.load_state_dict(torch.load("ppo_cartpole.pt", weights_only=True))
    mean_reward, std_reward = evaluate_policy(policy, env)
    print(f"mean_reward={mean_reward:.2f} +/- {std_reward:.2f}")
