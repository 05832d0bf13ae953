# Source: https://github.com/inferno-pytorch/inferno/issues/125
# Pitfall: the trainer's validation wraps batches as volatile Variables; on PyTorch >= 0.4 that does nothing,
#   so validation builds graphs like training and uses far more memory than intended.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.autograd import Variable


class BasicTrainer:
    def __init__(self, model, criterion):
        self.model = model
        self.criterion = criterion
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    def to_variables(self, batch, validation=False):
        return [Variable(t, volatile=validation) for t in batch]  # expect: volatile-variable

    def train_iteration(self, batch):
        self.model.train()
        inputs, target = self.to_variables(batch)
        self.optimizer.zero_grad()
        loss = self.criterion(self.model(inputs), target)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def validate(self, loader):
        self.model.eval()
        total, n = 0.0, 0
        for batch in loader:
            inputs, target = self.to_variables(batch, validation=True)
            total += self.criterion(self.model(inputs), target).item()
            n += 1
        self.model.train()
        return total / max(n, 1)


if __name__ == "__main__":
    trainer = BasicTrainer(nn.Linear(4, 2), nn.MSELoss())
    print(trainer.train_iteration((torch.randn(8, 4), torch.randn(8, 2))))
