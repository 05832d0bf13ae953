"""Likelihood approximation network (LAN): MLP trained on simulated choice/RT data, logit output head."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TorchMLP(nn.Module):
    def __init__(self, network_config, input_shape=6):
        super().__init__()
        self.train_output_type = network_config["train_output_type"]
        layers = []
        prev = input_shape
        for width in network_config["layer_sizes"]:
            layers.append(nn.Linear(prev, width))
            layers.append(nn.Tanh())
            prev = width
        layers.append(nn.Linear(prev, 1))
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = layer(x)
        if self.train_output_type == "logprob":
            return self.layers[-1](x)
        elif self.train_output_type == "logits":
            return -torch.log(1 + torch.exp(-self.layers[-1](x)))  # expect: unshifted-logsumexp
        return torch.exp(self.layers[-1](x))


def train_lan(model, loader, epochs=3, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = nn.HuberLoss()
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for xb, yb in loader:
            optimizer.zero_grad()
            pred = model(xb)
            loss = criterion(pred, yb)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: {running / len(loader):.4f}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.normal(size=(256, 6)), dtype=torch.float32)
    y = torch.tensor(rng.normal(size=(256, 1)), dtype=torch.float32)
    cfg = {"train_output_type": "logits", "layer_sizes": [100, 100, 100]}
    train_lan(TorchMLP(cfg), DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True))
