# Source: https://github.com/linnaeushuang/pensieve-pytorch/issues/4
# Pitfall: The actor head calls F.softmax without dim; PyTorch guesses the dimension (and warns), and for inputs of another rank the guess normalises over the wrong axis, so the action probabilities are wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BitrateActor(nn.Module):
    def __init__(self, n_inputs=48, n_actions=6):
        super().__init__()
        self.fc1 = nn.Linear(n_inputs, 128)
        self.fc2 = nn.Linear(128, 128)
        self.outputLayer = nn.Linear(128, n_actions)

    def forward(self, state):
        fcOutput = F.relu(self.fc2(F.relu(self.fc1(state))))
        out = F.softmax(self.outputLayer(fcOutput))  # expect: softmax-without-dim
        return out


def policy_gradient_step(actor, optimizer, states, actions, advantages):
    actor.train()
    dist = torch.distributions.Categorical(probs=actor(states))
    loss = -(dist.log_prob(actions) * advantages).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
