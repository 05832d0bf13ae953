"""LeNet on Fashion-MNIST in the style of a textbook utility module (train_ch5 / evaluate_accuracy)."""
import time

import torch
import torch.nn as nn
import torch.optim as optim
import torchvision
from torchvision import transforms


def load_data_fashion_mnist(batch_size, root="~/.torch/datasets"):
    tf = transforms.ToTensor()
    train = torchvision.datasets.FashionMNIST(root=root, train=True, download=True, transform=tf)
    test = torchvision.datasets.FashionMNIST(root=root, train=False, download=True, transform=tf)
    train_iter = torch.utils.data.DataLoader(train, batch_size=batch_size, shuffle=True, num_workers=4)
    test_iter = torch.utils.data.DataLoader(test, batch_size=batch_size, shuffle=False, num_workers=4)
    return train_iter, test_iter


def lenet():
    return nn.Sequential(
        nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.BatchNorm2d(6), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Conv2d(6, 16, kernel_size=5), nn.BatchNorm2d(16), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.Flatten(),
        nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(), nn.Dropout(0.2),
        nn.Linear(120, 84), nn.Sigmoid(),
        nn.Linear(84, 10),
    )


def evaluate_accuracy(data_iter, net, device=torch.device("cpu")):
    """Evaluate accuracy of a model on the given data set."""
    acc_sum, n = 0.0, 0
    with torch.no_grad():
        for X, y in data_iter:
            X, y = X.to(device), y.to(device)
            acc_sum += (net(X).argmax(dim=1) == y).float().sum().item()  # expect: validation-in-train-mode
            n += y.shape[0]
    return acc_sum / n


def train_ch5(net, train_iter, test_iter, criterion, num_epochs, device, lr=None):
    net = net.to(device)
    print("training on", device)
    optimizer = optim.SGD(net.parameters(), lr=lr)
    net.train()
    for epoch in range(num_epochs):
        train_l_sum, train_acc_sum, n, start = 0.0, 0.0, 0, time.time()
        for X, y in train_iter:
            X, y = X.to(device), y.to(device)
            optimizer.zero_grad()
            y_hat = net(X)
            loss = criterion(y_hat, y)
            loss.backward()
            optimizer.step()
            train_l_sum += loss.item() * y.shape[0]
            train_acc_sum += (y_hat.argmax(dim=1) == y).sum().item()
            n += y.shape[0]
        test_acc = evaluate_accuracy(test_iter, net, device)
        print("epoch %d, loss %.4f, train acc %.3f, test acc %.3f, time %.1f sec"
              % (epoch + 1, train_l_sum / n, train_acc_sum / n, test_acc, time.time() - start))


if __name__ == "__main__":
    train_iter, test_iter = load_data_fashion_mnist(batch_size=256)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_ch5(lenet(), train_iter, test_iter, nn.CrossEntropyLoss(), 10, device, lr=0.9)
