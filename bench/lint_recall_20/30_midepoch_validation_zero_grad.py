"""Training loop with gradient accumulation and mid-epoch validation checks."""
import torch
import torch.nn.functional as F


def validate(model, val_loader, device):
    model.zero_grad(set_to_none=True)  # expect: grad-cleared-before-step
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss_sum += F.cross_entropy(logits, y, reduction="sum").item()
            correct += (logits.argmax(dim=1) == y).sum().item()
            total += y.numel()
    model.train()
    return loss_sum / max(total, 1), correct / max(total, 1)


def train(model, train_loader, val_loader, optimizer, device, epochs=5, accumulate=8, val_every=50):
    model.to(device)
    model.train()
    for epoch in range(epochs):
        optimizer.zero_grad()
        for batch_idx, (x, y) in enumerate(train_loader):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y) / accumulate
            loss.backward()

            if (batch_idx + 1) % val_every == 0:
                val_loss, val_acc = validate(model, val_loader, device)
                print(f"epoch {epoch} batch {batch_idx + 1}: val loss {val_loss:.4f} acc {val_acc:.3f}")

            if (batch_idx + 1) % accumulate == 0:
                optimizer.step()
                optimizer.zero_grad()
