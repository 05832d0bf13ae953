# Source: https://github.com/ultralytics/ultralytics/pull/11217
# Pitfall: with gradient accumulation the trainer also calls optimizer.zero_grad() at the start of every
#          epoch, wiping the gradients of the last (len % accumulate) batches of the previous epoch before any step.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyDetectorHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU())
        self.pred = nn.Conv2d(32, 5 + 3, 1)

    def forward(self, x):
        return self.pred(self.features(x))


class DetTrainer:
    def __init__(self, nominal_bs=64, batch_size=16, epochs=3):
        self.model = TinyDetectorHead()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
        self.accumulate = max(round(nominal_bs / batch_size), 1)
        self.epochs = epochs
        imgs, targets = torch.randn(120, 3, 64, 64), torch.randn(120, 8, 16, 16)
        self.loader = DataLoader(TensorDataset(imgs, targets), batch_size=batch_size, shuffle=True)

    def optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=10.0)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train(self):
        nb = len(self.loader)
        last_opt_step = -1
        for epoch in range(self.epochs):
            self.model.train()
            self.optimizer.zero_grad()  # expect: grad-cleared-before-step
            for i, (imgs, targets) in enumerate(self.loader):
                ni = i + nb * epoch
                loss = nn.functional.smooth_l1_loss(self.model(imgs), targets) / self.accumulate
                loss.backward()
                if ni - last_opt_step >= self.accumulate:
                    self.optimizer_step()
                    last_opt_step = ni
            print(f"epoch {epoch} done, last loss {loss.item():.4f}")


if __name__ == "__main__":
    DetTrainer().train()
