# Source: https://github.com/BNUCNL/dnnbrain/pull/72
# Pitfall: the validation pass of the fine-tuning routine runs the network without switching it
#   to eval mode, so dropout stays active and the validation accuracy is noisy and too low.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def make_classifier(n_classes):
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(3 * 64 * 64, 512), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(512, 256), nn.ReLU(), nn.Dropout(0.5),
        nn.Linear(256, n_classes),
    )


def evaluate(net, loader, device):
    correct, seen = 0, 0
    with torch.no_grad():
        for stimuli, labels in loader:
            stimuli, labels = stimuli.to(device), labels.to(device)
            logits = net(stimuli)  # expect: validation-in-train-mode
            correct += (logits.argmax(1) == labels).sum().item()
            seen += labels.numel()
    return correct / max(seen, 1)


def finetune(net, train_set, val_set, n_epoch=10, device="cpu"):
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=64)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    net.to(device)
    history = []
    for epoch in range(n_epoch):
        net.train()
        for stimuli, labels in train_loader:
            stimuli, labels = stimuli.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = criterion(net(stimuli), labels)
            loss.backward()
            optimizer.step()
        acc = evaluate(net, val_loader, device)
        history.append(acc)
        print(f"epoch {epoch + 1}: val acc {acc:.3f}")
    return history
