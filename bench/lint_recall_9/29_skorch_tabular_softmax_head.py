# Source: https://github.com/Yard1/ray-skorch/pull/18
# Pitfall: the tabular classifier's module ends in a softmax while the skorch net is trained with
#   CrossEntropyLoss, which applies log_softmax itself; the double normalisation flattens the gradients.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
from skorch import NeuralNetClassifier


class TabularMLP(nn.Module):
    def __init__(self, n_features=20, n_hidden=64, n_classes=3, dropout=0.2):
        super().__init__()
        self.hidden = nn.Sequential(
            nn.Linear(n_features, n_hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(n_hidden, n_hidden), nn.ReLU(),
        )
        self.output = nn.Linear(n_hidden, n_classes)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, X):
        X = self.hidden(X)
        return self.softmax(self.output(X))  # expect: softmax-before-cross-entropy


def build_net(max_epochs=20, lr=0.05):
    return NeuralNetClassifier(
        TabularMLP,
        criterion=nn.CrossEntropyLoss,
        optimizer=torch.optim.SGD,
        optimizer__momentum=0.9,
        max_epochs=max_epochs,
        lr=lr,
        iterator_train__shuffle=True,
    )


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 20)).astype(np.float32)
    y = (X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 1).astype(np.int64)
    net = build_net()
    net.fit(X, y)
    print(net.predict_proba(X[:5]))
