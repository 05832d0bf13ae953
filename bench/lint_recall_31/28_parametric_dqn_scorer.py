"""Scorers that turn a (parametric) Q-network into action log-probabilities for a gym policy."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ParametricQNetwork(nn.Module):
    """Q(s, a) for one-hot / feature-encoded actions, one value per (state, action) row."""

    def __init__(self, state_dim, action_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim + action_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, state, action):
        return self.net(torch.cat([state, action], dim=-1))


def parametric_dqn_scorer(num_actions, q_network):
    @torch.no_grad()
    def score(state):
        tiled_state = state.repeat_interleave(repeats=num_actions, dim=0)
        actions = torch.eye(num_actions).repeat(state.size(0), 1)
        q_network.eval()
        scores = q_network(tiled_state, actions).view(-1, num_actions)
        assert scores.size(1) == num_actions, f"scores size is {scores.size()}, num_actions is {num_actions}"
        q_network.train()
        return F.log_softmax(scores)  # expect: softmax-without-dim

    return score


def softmax_policy(scorer, temperature=1.0):
    def act(state):
        log_probs = scorer(state) / temperature
        return torch.distributions.Categorical(logits=log_probs).sample()

    return act


def dqn_update(q_network, target_network, optimizer, batch, num_actions, gamma=0.99):
    state, action, reward, next_state, done = batch
    eye = torch.eye(num_actions)
    q = q_network(state, eye[action]).squeeze(-1)
    with torch.no_grad():
        next_tiled = next_state.repeat_interleave(num_actions, dim=0)
        next_q = target_network(next_tiled, eye.repeat(next_state.size(0), 1)).view(-1, num_actions)
        target = reward + gamma * (1 - done) * next_q.max(dim=1).values
    loss = F.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    qnet, tnet = ParametricQNetwork(4, 2), ParametricQNetwork(4, 2)
    tnet.load_state_dict(qnet.state_dict())
    policy = softmax_policy(parametric_dqn_scorer(2, qnet))
    print(policy(torch.randn(3, 4)))
    opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
    b = (torch.randn(32, 4), torch.randint(0, 2, (32,)), torch.randn(32), torch.randn(32, 4), torch.zeros(32))
    print(dqn_update(qnet, tnet, opt, b, 2))
