# Source: https://github.com/DeepReinforcementLearning/DeepReinforcementLearningInAction/issues/32
# Pitfall: The policy network ends with nn.Softmax(dim=0), which is fine for a single state but, when the whole episode is passed as a batch, normalises each action column over the time steps; the per-step action probabilities gathered from it are wrong. The loss then takes torch.log of those probabilities in a second step.
# Reproduced in our own words, not the original code.
import numpy as np
import torch

l1, l2, l3 = 4, 150, 2
model = torch.nn.Sequential(
    torch.nn.Linear(l1, l2),
    torch.nn.LeakyReLU(),
    torch.nn.Linear(l2, l3),
    torch.nn.Softmax(dim=0),
)
optimizer = torch.optim.Adam(model.parameters(), lr=0.009)


def discount_rewards(rewards, gamma=0.99):
    lenr = len(rewards)
    disc = torch.pow(gamma, torch.arange(lenr).float()) * rewards
    return disc / disc.max()


def update_policy(transitions):
    reward_batch = torch.tensor([r for (s, a, r) in transitions]).flip(dims=(0,))
    disc_returns = discount_rewards(reward_batch)
    state_batch = torch.from_numpy(np.array([s for (s, a, r) in transitions])).float()
    action_batch = torch.tensor([a for (s, a, r) in transitions])
    pred_batch = model(state_batch)  # expect: softmax-over-batch-dim
    prob_batch = pred_batch.gather(dim=1, index=action_batch.long().view(-1, 1)).squeeze()
    loss = -torch.sum(disc_returns * torch.log(prob_batch))  # expect: log-of-softmax
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
