"""Binary-weight (XNOR) network training on CIFAR-10."""
import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as T
from torch.utils.data import DataLoader


def binarize_weights(model):
    saved = []
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            saved.append(m.weight.data.clone())
            alpha = m.weight.data.abs().mean(dim=(1, 2, 3), keepdim=True)
            m.weight.data = m.weight.data.sign() * alpha
    return saved


def restore_weights(model, saved):
    convs = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
    for m, w in zip(convs, saved):
        m.weight.data.copy_(w)


def main(model, epochs=320, root="./data"):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    norm = T.Normalize((0.4914, 0.4822, 0.4465), (0.247, 0.243, 0.261))
    train_set = torchvision.datasets.CIFAR10(root, train=True, download=True,
                                             transform=T.Compose([T.RandomCrop(32, padding=4), T.ToTensor(), norm]))
    test_set = torchvision.datasets.CIFAR10(root, train=False, download=True, transform=T.Compose([T.ToTensor(), norm]))
    train_loader = DataLoader(train_set, batch_size=128, num_workers=2)  # expect: train-loader-not-shuffled
    test_loader = DataLoader(test_set, batch_size=100, num_workers=2)

    model = model.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=1e-5)
    for epoch in range(epochs):
        model.train()
        for data, target in train_loader:
            data, target = data.to(device), target.to(device)
            saved = binarize_weights(model)
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            restore_weights(model, saved)
            optimizer.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            saved = binarize_weights(model)
            for data, target in test_loader:
                data, target = data.to(device), target.to(device)
                correct += (model(data).argmax(dim=1) == target).sum().item()
            restore_weights(model, saved)
        print(f"epoch {epoch}: acc {100.0 * correct / len(test_set):.2f}%")
