"""CIFAR-style classifier with a per-iteration one-cycle schedule."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_model(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(64, num_classes),
    )


def run(config):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = TensorDataset(torch.randn(1024, 3, 32, 32), torch.randint(0, 10, (1024,)))
    train_loader = DataLoader(data, batch_size=config["batch_size"], shuffle=True, drop_last=True)
    model = build_model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"], momentum=0.9,
                                weight_decay=5e-4, nesterov=True)
    criterion = nn.CrossEntropyLoss()
    total_steps = config["epochs"] * len(train_loader)
    lr_scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=config["lr"],
                                                       total_steps=total_steps)

    for epoch in range(config["epochs"]):
        model.train()
        for it, (x, y) in enumerate(train_loader):
            lr_scheduler.step()  # expect: scheduler-before-optimizer
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if it % 20 == 0:
                print(f"epoch {epoch} it {it} lr {optimizer.param_groups[0]['lr']:.4f} "
                      f"loss {loss.item():.3f}")


if __name__ == "__main__":
    run({"batch_size": 64, "lr": 0.1, "epochs": 2})
