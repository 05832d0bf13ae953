# Source: https://github.com/asyml/texar-pytorch/issues/310
# Pitfall: the BERT classifier's eval epoch switches the model to eval mode and nothing
# switches it back, so every epoch after the first trains with dropout off.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self, encoder, n_classes):
        super().__init__()
        self.encoder = encoder
        self.drop = nn.Dropout(0.1)
        self.out = nn.Linear(768, n_classes)

    def forward(self, ids):
        return self.out(self.drop(self.encoder(ids)))


def _eval_epoch(model, loader):
    model.eval()  # expect: train-mode-not-restored
    correct = 0
    with torch.no_grad():
        for ids, labels in loader:
            correct += (model(ids).argmax(-1) == labels).sum().item()
    return correct


def main(encoder, train_loader, eval_loader, epochs=3):
    model = Classifier(encoder, 2)
    optim = torch.optim.Adam(model.parameters(), lr=2e-5)
    model.train()
    for epoch in range(epochs):
        for ids, labels in train_loader:
            optim.zero_grad()
            loss = nn.functional.cross_entropy(model(ids), labels)
            loss.backward()
            optim.step()
        _eval_epoch(model, eval_loader)
