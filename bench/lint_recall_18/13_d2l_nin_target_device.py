"""Network-in-Network on image batches; per-epoch train/test accuracy bookkeeping kept on the device."""
import time

import torch
import torch.nn as nn
import torch.optim as optim


def nin_block(in_channels, out_channels, kernel_size, strides, padding):
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, strides, padding), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
        nn.Conv2d(out_channels, out_channels, kernel_size=1), nn.ReLU(),
    )


def nin(num_classes=10):
    return nn.Sequential(
        nin_block(1, 96, kernel_size=11, strides=4, padding=0), nn.MaxPool2d(3, stride=2),
        nin_block(96, 256, kernel_size=5, strides=1, padding=2), nn.MaxPool2d(3, stride=2),
        nin_block(256, 384, kernel_size=3, strides=1, padding=1), nn.MaxPool2d(3, stride=2),
        nn.Dropout(0.5),
        nin_block(384, num_classes, kernel_size=3, strides=1, padding=1),
        nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(),
    )


@torch.no_grad()
def evaluate_accuracy(data_iter, net, device):
    net.eval()
    acc_sum, n = torch.zeros(1, device=device), 0
    for X, y in data_iter:
        X, y = X.to(device), y.to(device)
        acc_sum += (net(X).argmax(dim=1) == y).float().sum()
        n += y.numel()
    net.train()
    return acc_sum.item() / n


def train(net, train_iter, test_iter, num_epochs, lr, device):
    net = net.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=lr)
    net.train()
    for epoch in range(num_epochs):
        train_l_sum = torch.zeros(1, device=device)
        train_acc_sum = torch.zeros(1, device=device)
        n, start = 0, time.time()
        for X, y in train_iter:
            X = X.to(device)
            y = y.long()
            y.to(device)  # expect: tensor-op-result-discarded
            optimizer.zero_grad()
            y_hat = net(X)
            loss = criterion(y_hat, y)
            loss.backward()
            optimizer.step()
            train_l_sum += loss.detach() * y.shape[0]
            train_acc_sum += (y_hat.argmax(dim=1) == y).float().sum()
            n += y.shape[0]
        test_acc = evaluate_accuracy(test_iter, net, device)
        print(f"epoch {epoch + 1}: loss {train_l_sum.item() / n:.4f} "
              f"train acc {train_acc_sum.item() / n:.3f} test acc {test_acc:.3f} ({time.time() - start:.1f}s)")
