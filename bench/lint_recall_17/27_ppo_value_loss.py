"""PPO update with a separate critic; returns come from GAE over a flat rollout buffer."""
import torch
from torch import nn
from torch.distributions import Categorical


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, n_actions))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        dist = Categorical(logits=self.actor(x))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


def ppo_update(agent, optimizer, b_obs, b_actions, b_logprobs, b_advantages, b_returns, clip_coef=0.2, vf_coef=0.5, ent_coef=0.01, epochs=4, minibatch=64):
    n = b_obs.shape[0]
    for _ in range(epochs):
        perm = torch.randperm(n)
        for start in range(0, n, minibatch):
            mb = perm[start:start + minibatch]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
            ratio = (newlogprob - b_logprobs[mb]).exp()
            adv = b_advantages[mb]
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            pg_loss = torch.max(-adv * ratio, -adv * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)).mean()
            v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()  # expect: loss-shape-broadcast
            loss = pg_loss - ent_coef * entropy.mean() + vf_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
