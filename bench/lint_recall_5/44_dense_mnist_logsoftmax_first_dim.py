# Source: https://github.com/MicrosoftDocs/pytorchfundamentals/pull/21
# Pitfall: the dense-network lesson builds nn.LogSoftmax(dim=0) into the model, normalising over the batch
#          of images rather than the 10 classes, and trains it with the negative log-likelihood loss.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_dense_net():
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(784, 100),
        nn.ReLU(),
        nn.Linear(100, 10),
        nn.LogSoftmax(dim=0),  # expect: softmax-over-batch-dim
    )


def train_epoch(net, dataloader, lr=0.01, optimizer=None, loss_fn=F.nll_loss):
    optimizer = optimizer or torch.optim.Adam(net.parameters(), lr=lr)
    net.train()
    total_loss, acc, count = 0.0, 0, 0
    for features, labels in dataloader:
        optimizer.zero_grad()
        out = net(features)
        loss = loss_fn(out, labels)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        acc += (out.argmax(dim=1) == labels).sum().item()
        count += len(labels)
    return total_loss / count, acc / count


def validate(net, dataloader, loss_fn=F.nll_loss):
    net.eval()
    total, acc, count = 0.0, 0, 0
    with torch.no_grad():
        for features, labels in dataloader:
            out = net(features)
            total += loss_fn(out, labels).item()
            acc += (out.argmax(dim=1) == labels).sum().item()
            count += len(labels)
    return total / count, acc / count


if __name__ == "__main__":
    x, y = torch.rand(600, 1, 28, 28), torch.randint(0, 10, (600,))
    train_dl = DataLoader(TensorDataset(x[:500], y[:500]), batch_size=64, shuffle=True)
    test_dl = DataLoader(TensorDataset(x[500:], y[500:]), batch_size=64)
    model = make_dense_net()
    for ep in range(3):
        print(ep, train_epoch(model, train_dl), validate(model, test_dl))
