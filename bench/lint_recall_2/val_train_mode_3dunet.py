# Source: https://github.com/wolny/pytorch-3dunet/issues/53
# Pitfall: The trainer's validation pass runs the network without self.model.eval(), so dropout stays active and batch norm keeps using (and updating) batch statistics; validation scores are noisy and do not match inference.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class VolumeTrainer:
    def __init__(self, model, optimizer, loss_criterion, eval_criterion, train_loader, val_loader):
        self.model = model
        self.optimizer = optimizer
        self.loss_criterion = loss_criterion
        self.eval_criterion = eval_criterion
        self.train_loader = train_loader
        self.val_loader = val_loader

    def train_epoch(self):
        self.model.train()
        for volume, target in self.train_loader:
            output = self.model(volume)
            loss = self.loss_criterion(output, target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return self.validate()

    def validate(self):
        scores = []
        with torch.no_grad():
            for volume, target in self.val_loader:
                output = self.model(volume)  # expect: validation-in-train-mode
                scores.append(self.eval_criterion(output, target).item())
        return sum(scores) / max(len(scores), 1)


def build(model, train_loader, val_loader):
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4, weight_decay=1e-5)
    return VolumeTrainer(model, optimizer, nn.BCEWithLogitsLoss(), nn.MSELoss(), train_loader, val_loader)
