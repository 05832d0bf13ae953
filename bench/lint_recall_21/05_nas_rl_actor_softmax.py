"""Policy-gradient controller for architecture search: one categorical choice per step."""
import numpy as np
import torch
import torch.nn as nn


class Preprocessor(nn.Module):
    def __init__(self, obs_space_size, hidden_dim=64, num_layers=1):
        super().__init__()
        self.action_embedding = nn.Embedding(obs_space_size, hidden_dim)
        self.rnn = nn.LSTM(hidden_dim, hidden_dim, num_layers, batch_first=True)

    def forward(self, obs):
        seq = self.action_embedding(obs["action_history"].long())
        feature, _ = self.rnn(seq)
        return feature[torch.arange(len(feature)), obs["cur_step"].long()]


class Actor(nn.Module):
    def __init__(self, action_dim, preprocess):
        super().__init__()
        self.preprocess = preprocess
        self.action_dim = action_dim
        self.linear = nn.Linear(64, action_dim)

    def forward(self, obs, **kwargs):
        out = self.linear(self.preprocess(obs))
        # choices can have different numbers of options: mask the invalid ones
        mask = torch.arange(self.action_dim).expand(len(out), self.action_dim) >= obs["action_dim"].unsqueeze(1)
        out[mask.to(out.device)] = -1e9
        return nn.functional.softmax(out), kwargs.get("state", None)  # expect: softmax-without-dim


class Critic(nn.Module):
    def __init__(self, preprocess):
        super().__init__()
        self.preprocess = preprocess
        self.linear = nn.Linear(64, 1)

    def forward(self, obs, **kwargs):
        return self.linear(self.preprocess(obs)).squeeze(-1)


def reinforce_step(actor, critic, optimizer, obs, actions, returns):
    probs, _ = actor(obs)
    dist = torch.distributions.Categorical(probs=probs)
    values = critic(obs)
    advantages = returns - values.detach()
    policy_loss = -(dist.log_prob(actions) * advantages).mean()
    value_loss = nn.functional.mse_loss(values, returns)
    loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    pre = Preprocessor(obs_space_size=10)
    actor, critic = Actor(5, pre), Critic(pre)
    params = list(actor.parameters()) + list(critic.linear.parameters())
    opt = torch.optim.Adam(params, lr=3e-4)
    batch = 8
    obs = {
        "action_history": torch.randint(0, 10, (batch, 6)),
        "cur_step": torch.randint(0, 6, (batch,)),
        "action_dim": torch.from_numpy(np.random.randint(2, 6, size=batch)),
    }
    acts = torch.zeros(batch, dtype=torch.long)
    rets = torch.rand(batch)
    print(reinforce_step(actor, critic, opt, obs, acts, rets))
