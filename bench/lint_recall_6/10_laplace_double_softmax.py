# Source: https://github.com/runame/laplace-redux/pull/1
# Pitfall: the classifier already ends in a softmax and the training loss is CrossEntropyLoss, so softmax is
#   applied twice; logits are squashed into [0, 1] and the loss and its gradients barely move.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class WideMLP(nn.Module):
    def __init__(self, n_in=20, n_out=5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 128), nn.Tanh(), nn.Linear(128, n_out))
        self.to_probs = nn.Softmax(dim=-1)

    def forward(self, x):
        return self.to_probs(self.net(x))


def fit_map(model, dataset, epochs=10):
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=5e-4)
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            out = model(x)
            loss = criterion(out, y)  # expect: softmax-before-cross-entropy
            loss.backward()
            optimizer.step()
    return model
