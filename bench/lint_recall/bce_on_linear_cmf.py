# Source: https://github.com/HewlettPackard/cmf/pull/77
# Pitfall: nn.BCELoss on the raw output of the last Linear layer (no sigmoid); fixed by
# switching to nn.BCEWithLogitsLoss.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.hidden = nn.Linear(n_in, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


model = Classifier(20)
loss_fn = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def train(loader):
    for x, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(x).squeeze(1), y)  # expect: bce-on-logits
        loss.backward()
        opt.step()
