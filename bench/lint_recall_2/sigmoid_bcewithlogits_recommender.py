# Source: https://github.com/yudi-mars/daisyRec/pull/15
# Pitfall: The recommender's forward already applies torch.sigmoid to the score and the result is trained with BCEWithLogitsLoss, which applies the sigmoid again; the double squashing keeps the loss from converging.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class PointwiseMF(nn.Module):
    def __init__(self, n_users, n_items, factors=32):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, factors)
        self.item_emb = nn.Embedding(n_items, factors)

    def forward(self, users, items):
        score = (self.user_emb(users) * self.item_emb(items)).sum(dim=-1)
        return torch.sigmoid(score)


def fit(model, loader, epochs=5, lr=1e-3):
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for users, items, clicked in loader:
            optimizer.zero_grad()
            pred = model(users, items)
            loss = criterion(pred, clicked.float())  # expect: sigmoid-before-bce-with-logits
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(epoch, epoch_loss)
