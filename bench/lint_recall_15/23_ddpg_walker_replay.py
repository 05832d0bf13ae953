"""Replay a trained DDPG agent on BipedalWalker."""
import gym
import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(s_dim, 400), nn.ReLU(), nn.Linear(400, 300), nn.ReLU(),
                                 nn.Linear(300, a_dim), nn.Tanh())

    def forward(self, s):
        return self.net(s)


class Critic(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(s_dim + a_dim, 400), nn.ReLU(), nn.Linear(400, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=-1))


env = gym.make("BipedalWalker-v3")
s_dim, a_dim = env.observation_space.shape[0], env.action_space.shape[0]
actor_local = Actor(s_dim, a_dim)
critic_local = Critic(s_dim, a_dim)
actor_local.load_state_dict(torch.load("checkpoint_actor.pth"))  # expect: torch-load-unsafe
critic_local.load_state_dict(torch.load("checkpoint_critic.pth", weights_only=True))
actor_local.eval()

state, _ = env.reset()
done = False
while not done:
    with torch.no_grad():
        action = actor_local(torch.as_tensor(state, dtype=torch.float32)).numpy()
    state, reward, terminated, truncated, _ = env.step(action)
    done = terminated or truncated
env.close()
