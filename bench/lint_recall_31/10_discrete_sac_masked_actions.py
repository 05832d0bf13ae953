"""Discrete soft actor-critic with a dynamic (masked) action space."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def policy_distribution(self, obs, unavailable_mask=None):
        logits = self.net(obs)
        if unavailable_mask is not None:
            logits = logits.masked_fill(unavailable_mask, -1e9)
        return F.softmax(logits, dim=-1)


class Critic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)


class DiscreteSAC:
    def __init__(self, obs_dim, n_actions, gamma=0.99, entropy_coef=0.1, lr=3e-4):
        self.actor = Actor(obs_dim, n_actions)
        self.critic = Critic(obs_dim, n_actions)
        self.target_critic = Critic(obs_dim, n_actions)
        self.target_critic.load_state_dict(self.critic.state_dict())
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.gamma, self.entropy_coef = gamma, entropy_coef

    @torch.no_grad()
    def next_state_value(self, next_obs, next_mask):
        q_next = self.target_critic(next_obs).masked_fill(next_mask, 0.0)
        dist = self.actor.policy_distribution(next_obs, next_mask)
        soft_q = (q_next - self.entropy_coef * torch.log(dist + 1e-8)) * dist
        return soft_q.sum(dim=1)

    def update(self, obs, action, reward, next_obs, done, mask, next_mask):
        target = reward + self.gamma * (1 - done) * self.next_state_value(next_obs, next_mask)
        q = self.critic(obs).gather(1, action.unsqueeze(1)).squeeze(1)
        critic_loss = F.mse_loss(q, target)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        dist = self.actor.policy_distribution(obs, mask)
        with torch.no_grad():
            q_all = self.critic(obs).masked_fill(mask, 0.0)
        policy_loss = (dist * (self.entropy_coef * torch.log(dist) - q_all)).sum(dim=1).mean()  # expect: unguarded-zero
        self.actor_opt.zero_grad()
        policy_loss.backward()
        self.actor_opt.step()

        for p, tp in zip(self.critic.parameters(), self.target_critic.parameters()):
            tp.data.mul_(0.995).add_(0.005 * p.data)
        return critic_loss.item(), policy_loss.item()


if __name__ == "__main__":
    agent = DiscreteSAC(obs_dim=12, n_actions=6)
    B = 64
    mask = torch.zeros(B, 6, dtype=torch.bool)
    mask[:, 4:] = True
    batch = (torch.randn(B, 12), torch.randint(0, 4, (B,)), torch.randn(B),
             torch.randn(B, 12), torch.zeros(B), mask, mask.clone())
    print(agent.update(*batch))
