# Source: https://github.com/d2l-ai/d2l-en/issues/1093
# Pitfall: dropout is gated on an is_training attribute fixed at construction instead of
# self.training, so test accuracy is computed with dropout on.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


def dropout_layer(X, p):
    mask = (torch.rand(X.shape) > p).float()
    return mask * X / (1.0 - p)


class Net(nn.Module):
    def __init__(self, num_inputs, num_outputs, h1, h2, is_training=True):
        super().__init__()
        self.is_training = is_training
        self.lin1, self.lin2, self.lin3 = nn.Linear(num_inputs, h1), nn.Linear(h1, h2), nn.Linear(h2, num_outputs)

    def forward(self, X):
        H1 = torch.relu(self.lin1(X))
        if self.is_training:  # expect: functional-dropout-always-on
            H1 = dropout_layer(H1, 0.2)
        H2 = torch.relu(self.lin2(H1))
        return self.lin3(H2)
