# Source: https://github.com/pliang279/MultiBench/issues/26
# Pitfall: The validation block calls model.eval() but then model.train() a few lines later, before the
# forward pass, so validation runs with dropout and batch-norm in training mode.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train_supervised(model, train_loader, valid_loader, epochs, lr=1e-3, device="cuda"):
    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    best = 0.0
    for epoch in range(epochs):
        model.train()
        for modalities, labels in train_loader:
            modalities = [m.to(device) for m in modalities]
            opt.zero_grad()
            loss = loss_fn(model(modalities), labels.to(device))
            loss.backward()
            opt.step()

        model.eval()
        correct, n = 0, 0
        with torch.no_grad():
            model.train()
            for modalities, labels in valid_loader:
                modalities = [m.to(device) for m in modalities]
                preds = model(modalities).argmax(-1)  # expect: validation-in-train-mode
                correct += (preds.cpu() == labels).sum().item()
                n += labels.numel()
        acc = correct / max(n, 1)
        best = max(best, acc)
    return best
