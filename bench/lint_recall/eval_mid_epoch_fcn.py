# Source: https://github.com/wkentaro/pytorch-fcn/pull/56
# Pitfall: the trainer validates in the middle of an epoch (model.eval()) and keeps training
# the rest of the epoch in eval mode.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optim, train_loader, val_loader, interval_validate=4000):
        self.model, self.optim = model, optim
        self.train_loader, self.val_loader = train_loader, val_loader
        self.interval_validate = interval_validate
        self.iteration = 0

    def validate(self):
        self.model.eval()  # expect: train-mode-not-restored
        with torch.no_grad():
            for data, target in self.val_loader:
                self.model(data)

    def train_epoch(self):
        self.model.train()
        for data, target in self.train_loader:
            if self.iteration % self.interval_validate == 0:
                self.validate()
            self.optim.zero_grad()
            loss = F.cross_entropy(self.model(data), target, ignore_index=-1)
            loss.backward()
            self.optim.step()
            self.iteration += 1
