# Source: https://github.com/Photon-AI-Research/NeuralSolvers/issues/20
# Pitfall: the initial-condition loss compares a (B, 1) prediction with a (B,) target.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class InitialCondition:
    def __init__(self, dataset, u0):
        self.dataset, self.u0 = dataset, u0
        self.loss = nn.MSELoss()

    def __call__(self, model, x):
        prediction = model(x)  # (B, 1)
        target = self.u0(x)  # (B,)
        return self.loss(prediction, target)  # expect: loss-shape-broadcast
