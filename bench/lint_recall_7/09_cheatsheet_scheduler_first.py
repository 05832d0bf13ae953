# Source: https://github.com/pytorch/tutorials/pull/1083
# Pitfall: the learning-rate scheduler is stepped at the top of every epoch, before any
#   optimizer.step(); since PyTorch 1.1 this skips the first value of the schedule.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


def make_loaders():
    xs = torch.randn(1024, 20)
    ys = (xs[:, :5].sum(dim=1) > 0).long()
    train = DataLoader(TensorDataset(xs[:896], ys[:896]), batch_size=64, shuffle=True)
    val = DataLoader(TensorDataset(xs[896:], ys[896:]), batch_size=128)
    return train, val


def main():
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=10, gamma=0.1)
    train_loader, val_loader = make_loaders()

    for epoch in range(30):
        scheduler.step()  # expect: scheduler-before-optimizer
        net.train()
        for inputs, targets in train_loader:
            optimizer.zero_grad()
            loss = criterion(net(inputs), targets)
            loss.backward()
            optimizer.step()

        net.eval()
        correct = 0
        with torch.no_grad():
            for inputs, targets in val_loader:
                correct += (net(inputs).argmax(dim=1) == targets).sum().item()
        print(f"epoch {epoch} lr {optimizer.param_groups[0]['lr']:.4f} "
              f"val acc {correct / len(val_loader.dataset):.3f}")


if __name__ == "__main__":
    main()
