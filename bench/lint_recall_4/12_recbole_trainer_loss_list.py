# Source: https://github.com/RUCAIBox/RecBole/pull/307
# Pitfall: the trainer keeps every batch's loss tensor in a list to report the epoch loss, so
#   each step's autograd graph stays alive for the whole epoch and memory runs out.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class BPRMatrixFactorization(nn.Module):
    def __init__(self, n_users, n_items, dim=64):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)

    def calculate_loss(self, users, pos_items, neg_items):
        u = self.user(users)
        pos = (u * self.item(pos_items)).sum(-1)
        neg = (u * self.item(neg_items)).sum(-1)
        return -nn.functional.logsigmoid(pos - neg).mean()


class RecTrainer:
    def __init__(self, model, learning_rate=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

    def _train_epoch(self, train_data, epoch_idx):
        self.model.train()
        batch_losses = []
        for users, pos_items, neg_items in train_data:
            self.optimizer.zero_grad()
            loss = self.model.calculate_loss(users, pos_items, neg_items)
            batch_losses.append(loss)  # expect: running-loss-keeps-graph
            loss.backward()
            self.optimizer.step()
        epoch_loss = sum(l.item() for l in batch_losses) / max(len(batch_losses), 1)
        return epoch_loss

    def fit(self, train_data, epochs):
        for epoch_idx in range(epochs):
            loss = self._train_epoch(train_data, epoch_idx)
            print(f"epoch {epoch_idx} train loss: {loss:.4f}")
