# Source: https://github.com/chenyuntc/pytorch-book/issues/70
# Pitfall: the validation code wraps inputs in Variable(..., volatile=True) to avoid building a
#   graph; since PyTorch 0.4 the flag does nothing, so the graph is recorded and memory is wasted.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


def val(model, dataloader, device):
    model.eval()
    correct, total = 0, 0
    for ii, (data, label) in enumerate(dataloader):
        val_input = Variable(data, volatile=True).to(device)  # expect: volatile-variable
        score = model(val_input)
        pred = score.argmax(dim=1).cpu()
        correct += (pred == label).sum().item()
        total += label.size(0)
    model.train()
    return correct / max(total, 1)


def train(model, train_loader, val_loader, epochs, device):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
    model.to(device)
    for epoch in range(epochs):
        model.train()
        for data, label in train_loader:
            data, label = data.to(device), label.to(device)
            optimizer.zero_grad()
            loss = criterion(model(data), label)
            loss.backward()
            optimizer.step()
        acc = val(model, val_loader, device)
        print(f"epoch {epoch}: val acc {acc:.4f}")
