# Source: https://github.com/scaleoutsystems/scaleout-client/pull/720
# Pitfall: the federated client loads the global model received from the server with torch.load and no
#   weights_only=True; a malicious aggregate could execute code on every client that unpickles it.
# Reproduced in our own words, not the original code.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class MnistNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


def load_parameters(blob: bytes) -> MnistNet:
    model = MnistNet()
    buffer = io.BytesIO(blob)
    model.load_state_dict(torch.load(buffer))  # expect: torch-load-unsafe
    return model


def local_train(blob, dataset, epochs=1):
    model = load_parameters(blob)
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
    out = io.BytesIO()
    torch.save(model.state_dict(), out)
    return out.getvalue()
