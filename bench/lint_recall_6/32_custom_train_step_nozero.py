# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/issues/293
# Pitfall: the torch implementation of the custom train_step runs backward and the optimizer step but never
#   clears gradients, so every step applies the sum of all previous gradients and results are terrible.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CustomModel(nn.Module):
    def __init__(self, n_in=784, n_out=10):
        super().__init__()
        self.dense1 = nn.Linear(n_in, 512)
        self.dense2 = nn.Linear(512, n_out)
        self.optimizer = torch.optim.RMSprop(self.parameters(), lr=1e-3)
        self.loss_tracker = []

    def forward(self, x):
        return self.dense2(F.relu(self.dense1(x)))

    def train_step(self, x, y):
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()  # expect: gradients-never-cleared
        self.optimizer.step()
        self.loss_tracker.append(loss.item())
        return {"loss": sum(self.loss_tracker) / max(len(self.loss_tracker), 1)}


def fit(model, loader, epochs=3):
    for _ in range(epochs):
        model.train()
        model.loss_tracker.clear()
        for x, y in loader:
            logs = model.train_step(x.flatten(1), y)
        print(logs)
