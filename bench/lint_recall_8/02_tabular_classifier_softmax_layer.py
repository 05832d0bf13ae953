# Source: https://github.com/Safe-DS/Library/issues/581
# Pitfall: the generated classification network always appends a Softmax output layer while the
# loss is nn.CrossEntropyLoss, so the loss sees probabilities instead of logits and learns slowly.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def build_layers(sizes, n_classes):
    layers = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    layers.append(nn.Linear(sizes[-1], n_classes))
    layers.append(nn.Softmax(dim=-1))
    return nn.Sequential(*layers)


class TableClassifier:
    def __init__(self, sizes, n_classes, lr=0.01):
        self.net = build_layers(sizes, n_classes)
        self.loss_fn = nn.CrossEntropyLoss()
        self.opt = torch.optim.SGD(self.net.parameters(), lr=lr, momentum=0.9)

    def fit(self, features, labels, epochs=5, batch_size=32):
        loader = DataLoader(TensorDataset(features, labels), batch_size=batch_size, shuffle=True)
        self.net.train()
        for epoch in range(epochs):
            epoch_loss = 0.0
            for xb, yb in loader:
                self.opt.zero_grad()
                out = self.net(xb)
                loss = self.loss_fn(out, yb)  # expect: softmax-before-cross-entropy
                loss.backward()
                self.opt.step()
                epoch_loss += loss.item()
            print(f"epoch {epoch}: {epoch_loss / len(loader):.4f}")
        return self

    def predict(self, features):
        self.net.eval()
        with torch.no_grad():
            return self.net(features).argmax(dim=-1)


if __name__ == "__main__":
    X = torch.randn(300, 8)
    y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()
    model = TableClassifier([8, 32, 16], n_classes=3).fit(X, y)
    print((model.predict(X) == y).float().mean().item())
