"""Fine-tune a vision transformer with a small per-step batch and gradient accumulation."""
import timm
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def train(train_set, num_classes, epochs=10, batch_size=16, accumulation_steps=8, lr=3e-4, device="cuda"):
    model = timm.create_model("vit_small_patch16_224", pretrained=True, num_classes=num_classes).to(device)
    loader = DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=4, pin_memory=True)
    loss_function = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.05)

    for epoch in range(epochs):
        model.train()
        model.zero_grad()
        for i, (inputs, labels) in enumerate(loader):
            inputs = inputs.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            predictions = model(inputs)
            loss = loss_function(predictions, labels)
            loss.backward()  # expect: accumulation-not-averaged
            if (i + 1) % accumulation_steps == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                model.zero_grad()
        print(f"epoch {epoch} last loss {loss.item():.4f}")
    return model


@torch.no_grad()
def evaluate(model, val_set, batch_size=64, device="cuda"):
    loader = DataLoader(val_set, batch_size=batch_size, shuffle=False, num_workers=4, pin_memory=True)
    model.eval()
    correct, total = 0, 0
    for inputs, labels in loader:
        inputs = inputs.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        correct += (model(inputs).argmax(1) == labels).sum().item()
        total += labels.numel()
    model.train()
    return correct / max(total, 1)
