"""Multitask molecular property classifier with a loss-factory pattern:
each Loss object builds the PyTorch function that the fit loop calls."""
import torch
import torch.nn as nn


class Loss:
    def _create_pytorch_loss(self):
        raise NotImplementedError


class SigmoidCrossEntropy(Loss):
    """Binary cross entropy on the model's logits, one column per task."""

    def _create_pytorch_loss(self):
        bce = nn.BCELoss(reduction="none")

        def loss(output, labels):
            return bce(torch.sigmoid(output), labels)  # expect: sigmoid-before-bce

        return loss


class MultitaskMLP(nn.Module):
    def __init__(self, n_features, n_tasks, layer_sizes=(1000, 500), dropout=0.25):
        super().__init__()
        layers, prev = [], n_features
        for size in layer_sizes:
            layers += [nn.Linear(prev, size), nn.ReLU(), nn.Dropout(dropout)]
            prev = size
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(prev, n_tasks)

    def forward(self, x):
        return self.head(self.body(x))


def fit(model, loader, loss_obj, epochs=20, lr=1e-3, device="cuda"):
    loss_fn = loss_obj._create_pytorch_loss()
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        avg = 0.0
        for x, y, w in loader:
            x, y, w = x.to(device), y.to(device), w.to(device)
            optimizer.zero_grad()
            per_task = loss_fn(model(x), y)
            loss = (per_task * w).sum() / w.sum().clamp(min=1.0)
            loss.backward()
            optimizer.step()
            avg += loss.item()
        print(f"epoch {epoch}: weighted loss {avg / len(loader):.4f}")


@torch.no_grad()
def predict_proba(model, loader, device="cuda"):
    model.eval()
    return torch.cat([torch.sigmoid(model(x.to(device))).cpu() for x, _, _ in loader])
