# Source: https://github.com/qbx2/PAAC.pytorch/issues/1
# Pitfall: the actor-critic loop adds each update's loss Variable into loss_sum for logging,
#   which keeps every update's graph referenced until the report, so memory is freed too late.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, n_actions):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(4, 16, 8, stride=4), nn.ReLU(),
            nn.Conv2d(16, 32, 4, stride=2), nn.ReLU(),
            nn.Flatten(), nn.Linear(32 * 9 * 9, 256), nn.ReLU(),
        )
        self.policy = nn.Linear(256, n_actions)
        self.value = nn.Linear(256, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.policy(h), self.value(h).squeeze(-1)


def paac_update(net, optimizer, obs, actions, returns, entropy_coef=0.01):
    logits, values = net(obs)
    log_probs = F.log_softmax(logits, dim=-1)
    chosen = log_probs.gather(1, actions.unsqueeze(1)).squeeze(1)
    advantage = returns - values
    entropy = -(log_probs.exp() * log_probs).sum(-1).mean()
    loss = -(chosen * advantage.detach()).mean() + 0.5 * advantage.pow(2).mean() - entropy_coef * entropy
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 40.0)
    optimizer.step()
    return loss


def train(net, rollouts, report_every=100):
    optimizer = torch.optim.RMSprop(net.parameters(), lr=7e-4, alpha=0.99, eps=0.1)
    loss_sum = 0
    for update, (obs, actions, returns) in enumerate(rollouts, start=1):
        loss = paac_update(net, optimizer, obs, actions, returns)
        loss_sum += loss  # expect: running-loss-keeps-graph
        if update % report_every == 0:
            print(f"update {update}: mean loss {float(loss_sum) / report_every:.4f}")
            loss_sum = 0
