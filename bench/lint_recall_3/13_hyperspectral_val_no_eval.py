# Source: https://github.com/eecn/Hyperspectral-Classification/issues/21
# Pitfall: The validation function wraps the forward pass in torch.no_grad() but never calls
# net.eval(), so dropout and batch-norm stay in training mode and the validation accuracy is noisy.
# Reproduced in our own words, not the original code.
import torch


def validate(net, data_loader, device="cpu", ignored=(0,)):
    hits, total = 0.0, 0
    for patch, target in data_loader:
        with torch.no_grad():
            patch, target = patch.to(device), target.to(device)
            scores = net(patch)  # expect: validation-in-train-mode
            _, pred = torch.max(scores, dim=1)
            for p, t in zip(pred.view(-1), target.view(-1)):
                if t.item() in ignored:
                    continue
                hits += float(p.item() == t.item())
                total += 1
    return hits / max(total, 1)


def train(net, optimizer, criterion, train_loader, val_loader, epochs, device):
    for epoch in range(epochs):
        net.train()
        for patch, target in train_loader:
            patch, target = patch.to(device), target.to(device)
            optimizer.zero_grad()
            loss = criterion(net(patch), target)
            loss.backward()
            optimizer.step()
        acc = validate(net, val_loader, device=device)
        print(f"epoch {epoch} val acc {acc:.3f}")
