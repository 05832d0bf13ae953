# Source: https://github.com/sicara/easy-few-shot-learning/pull/140
# Pitfall: the classical-training notebook keeps best_state = model.state_dict() when validation improves;
#          state_dict() returns references to the live tensors, so the "best" weights keep changing with training.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def training_epoch(model, data_loader, optimizer, loss_fn):
    model.train()
    total = 0.0
    for images, labels in data_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(images), labels)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(data_loader)


@torch.no_grad()
def evaluate(model, data_loader):
    model.eval()
    correct, n = 0, 0
    for images, labels in data_loader:
        correct += (model(images).argmax(-1) == labels).sum().item()
        n += len(labels)
    return correct / n


if __name__ == "__main__":
    x, y = torch.randn(400, 3, 32, 32), torch.randint(0, 5, (400,))
    train_loader = DataLoader(TensorDataset(x[:320], y[:320]), batch_size=32, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[320:], y[320:]), batch_size=32)
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))
    train_optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(train_optimizer, milestones=[5, 8], gamma=0.1)
    loss_fn = nn.CrossEntropyLoss()
    best_state = None
    best_acc = 0.0
    for epoch in range(10):
        avg_loss = training_epoch(model, train_loader, train_optimizer, loss_fn)
        acc = evaluate(model, val_loader)
        if acc > best_acc:
            best_acc = acc
            best_state = model.state_dict()  # expect: state-dict-not-copied
            print("new best", best_acc)
        scheduler.step()
    if best_state is not None:
        model.load_state_dict(best_state)
