"""Referential game trainer: one epoch of REINFORCE-free (Gumbel) training with logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Sender(nn.Module):
    def __init__(self, n_attr, vocab, hidden=128):
        super().__init__()
        self.fc = nn.Linear(n_attr, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x):
        return self.out(torch.relu(self.fc(x)))


class Receiver(nn.Module):
    def __init__(self, vocab, n_attr, hidden=128):
        super().__init__()
        self.fc = nn.Linear(vocab, hidden)
        self.out = nn.Linear(hidden, n_attr)

    def forward(self, msg):
        return self.out(torch.relu(self.fc(msg)))


class GumbelGame(nn.Module):
    def __init__(self, sender, receiver, temperature=1.0):
        super().__init__()
        self.sender, self.receiver, self.temperature = sender, receiver, temperature

    def forward(self, sender_input, labels):
        message = F.gumbel_softmax(self.sender(sender_input), tau=self.temperature, hard=False)
        output = self.receiver(message)
        loss = F.mse_loss(output, sender_input)
        return loss, {"msg_entropy": -(message * message.clamp_min(1e-9).log()).sum(-1).mean().item()}


class Trainer:
    def __init__(self, game, optimizer, train_data, device="cpu", grad_norm=None):
        self.game = game.to(device)
        self.optimizer = optimizer
        self.train_data = train_data
        self.device = device
        self.grad_norm = grad_norm

    def train_epoch(self):
        mean_loss = 0
        n_batches = 0
        self.game.train()
        for sender_input, labels in self.train_data:
            sender_input = sender_input.to(self.device)
            labels = labels.to(self.device)
            self.optimizer.zero_grad()
            optimized_loss, interaction = self.game(sender_input, labels)
            optimized_loss.backward()
            if self.grad_norm:
                torch.nn.utils.clip_grad_norm_(self.game.parameters(), self.grad_norm)
            self.optimizer.step()
            n_batches += 1
            mean_loss += optimized_loss  # expect: running-loss-keeps-graph
        mean_loss /= n_batches
        return mean_loss.item()


if __name__ == "__main__":
    data = [(torch.rand(64, 8), torch.zeros(64)) for _ in range(100)]
    game = GumbelGame(Sender(8, 16), Receiver(16, 8))
    trainer = Trainer(game, torch.optim.Adam(game.parameters(), lr=1e-3), data, grad_norm=1.0)
    for epoch in range(10):
        print(epoch, trainer.train_epoch())
