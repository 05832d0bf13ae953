"""Sender/receiver signalling game trainer with a small Batch container."""
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


@dataclass
class Batch:
    sender_input: torch.Tensor
    labels: torch.Tensor
    receiver_input: Optional[torch.Tensor] = None

    def to(self, device):
        """Returns a new Batch whose tensors live on `device`."""
        moved = [t.to(device) if t is not None else None
                 for t in (self.sender_input, self.labels, self.receiver_input)]
        return Batch(*moved)


class Game(nn.Module):
    def __init__(self, n_features=10, vocab=20, hidden=64):
        super().__init__()
        self.sender = nn.Sequential(nn.Linear(n_features, hidden), nn.Tanh(), nn.Linear(hidden, vocab))
        self.receiver = nn.Sequential(nn.Linear(vocab, hidden), nn.Tanh(), nn.Linear(hidden, n_features))

    def forward(self, sender_input, labels, receiver_input=None):
        message = F.gumbel_softmax(self.sender(sender_input), tau=1.0, hard=True)
        guess = self.receiver(message)
        loss = F.cross_entropy(guess, labels)
        acc = (guess.argmax(dim=1) == labels).float().mean()
        return loss, {"acc": acc.item()}


class Trainer:
    def __init__(self, game, optimizer, train_data, device):
        self.game = game.to(device)
        self.optimizer = optimizer
        self.train_data = train_data
        self.device = device

    def train_epoch(self):
        self.game.train()
        mean_loss, n = 0.0, 0
        for batch in self.train_data:
            if not isinstance(batch, Batch):
                batch = Batch(*batch)
            batch.to(self.device)  # expect: tensor-op-result-discarded
            self.optimizer.zero_grad()
            loss, logs = self.game(batch.sender_input, batch.labels, batch.receiver_input)
            loss.backward()
            self.optimizer.step()
            mean_loss += loss.item()
            n += 1
        return mean_loss / max(n, 1)


def collate(samples):
    x = torch.stack([s for s in samples])
    return x, x.argmax(dim=1)


if __name__ == "__main__":
    data = [torch.eye(10)[i % 10] for i in range(2000)]
    loader = DataLoader(data, batch_size=32, shuffle=True, collate_fn=collate)
    game = Game()
    opt = torch.optim.Adam(game.parameters(), lr=1e-3)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    trainer = Trainer(game, opt, loader, dev)
    for epoch in range(5):
        print(epoch, trainer.train_epoch())
