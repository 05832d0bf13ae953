# Source: https://github.com/wenet-e2e/wekws/issues/72
# Pitfall: The executor's training loop calls loss.backward() and optimizer.step() for every batch but never zeroes the gradients, so each step applies the sum of all previous gradients.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class Executor:
    def __init__(self, log_interval=100, grad_clip=5.0):
        self.step = 0
        self.log_interval = log_interval
        self.grad_clip = grad_clip

    def train(self, model, optimizer, data_loader, device):
        model.train()
        criterion = nn.BCEWithLogitsLoss()
        for batch_idx, (feats, target) in enumerate(data_loader):
            feats = feats.to(device)
            target = target.to(device)
            logits = model(feats)
            loss = criterion(logits, target)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), self.grad_clip)
            optimizer.step()  # expect: gradients-never-cleared
            if batch_idx % self.log_interval == 0:
                print(f"batch {batch_idx} loss {loss.item():.6f}")
            self.step += 1
