"""Synchronous A2C over several Atari processes: rollout storage and the batched update."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, in_ch=4, n_actions=6):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(in_ch, 32, 8, 4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, 2), nn.ReLU(),
            nn.Conv2d(64, 32, 3, 1), nn.ReLU(), nn.Flatten(),
            nn.Linear(32 * 7 * 7, 512), nn.ReLU(),
        )
        self.critic = nn.Linear(512, 1)
        self.actor = nn.Linear(512, n_actions)

    def forward(self, x):
        h = self.body(x / 255.0)
        return self.critic(h), self.actor(h)


def a2c_update(actor_critic, optimizer, states, actions, returns, num_steps, num_processes,
               value_coef=0.5, entropy_coef=0.01, max_grad_norm=0.5):
    values, logits = actor_critic(states[:-1].view(-1, *states.size()[-3:]))
    logits_size = (num_steps, num_processes, logits.size(-1))

    log_probs = F.log_softmax(logits, dim=0).view(logits_size)  # expect: softmax-over-batch-dim
    probs = F.softmax(logits, dim=0).view(logits_size)  # expect: softmax-over-batch-dim

    values = values.view(num_steps, num_processes, 1)
    action_log_probs = log_probs.gather(2, actions.unsqueeze(2))
    dist_entropy = -(log_probs * probs).sum(-1).mean()

    advantages = returns[:-1] - values
    value_loss = advantages.pow(2).mean()
    action_loss = -(advantages.detach() * action_log_probs).mean()

    optimizer.zero_grad()
    (value_loss * value_coef + action_loss - dist_entropy * entropy_coef).backward()
    nn.utils.clip_grad_norm_(actor_critic.parameters(), max_grad_norm)
    optimizer.step()
    return value_loss.item(), action_loss.item(), dist_entropy.item()


def compute_returns(rewards, masks, next_value, gamma=0.99):
    returns = torch.zeros(rewards.size(0) + 1, *rewards.size()[1:])
    returns[-1] = next_value
    for step in reversed(range(rewards.size(0))):
        returns[step] = returns[step + 1] * gamma * masks[step] + rewards[step]
    return returns


if __name__ == "__main__":
    num_steps, num_processes = 5, 16
    net = ActorCritic()
    opt = torch.optim.RMSprop(net.parameters(), lr=7e-4, eps=1e-5, alpha=0.99)
    states = torch.randint(0, 255, (num_steps + 1, num_processes, 4, 84, 84)).float()
    actions = torch.randint(0, 6, (num_steps, num_processes))
    rewards = torch.randn(num_steps, num_processes, 1)
    masks = torch.ones(num_steps, num_processes, 1)
    with torch.no_grad():
        next_value = net(states[-1])[0]
    rets = compute_returns(rewards, masks, next_value)
    print(a2c_update(net, opt, states, actions, rets, num_steps, num_processes))
