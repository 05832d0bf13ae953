# Source: https://github.com/VectorInstitute/FL4Health/pull/119
# Pitfall: a federated DP client builds its optimizer, then lets Opacus replace non-DP-compliant layers in
#          the model; the optimizer still points at the old layers' parameters, so the replacements never train.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from opacus.validators import ModuleValidator


class TabularNet(nn.Module):
    def __init__(self, d_in=30, d_hidden=64):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(d_in, d_hidden), nn.BatchNorm1d(d_hidden), nn.ReLU())
        self.out = nn.Linear(d_hidden, 2)

    def forward(self, x):
        return self.out(self.block(x))


class InstanceLevelDPClient:
    def __init__(self, lr=0.01):
        self.model = TabularNet()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)
        self.criterion = nn.CrossEntropyLoss()

    def setup_privacy(self):
        if not ModuleValidator.is_valid(self.model):
            self.model = ModuleValidator.fix(self.model)  # expect: optimizer-misses-params

    def local_round(self, batches):
        self.model.train()
        total = 0.0
        for x, y in batches:
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(batches)


if __name__ == "__main__":
    client = InstanceLevelDPClient()
    client.setup_privacy()
    data = [(torch.randn(32, 30), torch.randint(0, 2, (32,))) for _ in range(10)]
    for rnd in range(3):
        print(rnd, client.local_round(data))
