# Source: https://github.com/linnaeushuang/pensieve-pytorch/issues/4
# Pitfall: the actor's output layer goes through F.softmax without dim (deprecated implicit
# dimension; it picks dim 0 for a 1-D/3-D input, i.e. across the batch).
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch import nn


class ActorNetwork(nn.Module):
    def __init__(self, n_in, n_actions):
        super().__init__()
        self.fc = nn.Linear(n_in, 128)
        self.outputLayer = nn.Linear(128, n_actions)

    def forward(self, x):
        fc_out = F.relu(self.fc(x))
        return F.softmax(self.outputLayer(fc_out))  # expect: softmax-without-dim
