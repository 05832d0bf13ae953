# Source: https://github.com/yudi-mars/daisyRec/pull/15
# Pitfall: the recommender passes sigmoid(prediction) to BCEWithLogitsLoss; the loss "does
# not converge" until the extra sigmoid is removed.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class MF(nn.Module):
    def __init__(self, n_users, n_items, k=32):
        super().__init__()
        self.u = nn.Embedding(n_users, k)
        self.i = nn.Embedding(n_items, k)

    def forward(self, user, item):
        return (self.u(user) * self.i(item)).sum(-1)


model = MF(1000, 5000)
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def fit(loader):
    for user, item, label in loader:
        optimizer.zero_grad()
        pred = torch.sigmoid(model(user, item))
        loss = criterion(pred, label.float())  # expect: sigmoid-before-bce-with-logits
        loss.backward()
        optimizer.step()
