# Source: https://github.com/xyanchen/X-Fi/blob/fbce1425055df6be9088e8655d4496d6dc6de03d/HAR/utils.py
# Pitfall: the training loop guards against a NaN loss with `loss == float('nan')`; NaN never
#   compares equal, so the check is always False and NaN batches are back-propagated anyway.
# Reproduced in our own words, not the original code.
import random

import torch
import torch.nn as nn


class LateFusionHAR(nn.Module):
    def __init__(self, dims=(512, 256, 128, 64), n_actions=27, width=128):
        super().__init__()
        self.projectors = nn.ModuleList([nn.Linear(d, width) for d in dims])
        self.fusion = nn.Sequential(nn.LayerNorm(width), nn.Linear(width, width), nn.GELU())
        self.head = nn.Linear(width, n_actions)

    def forward(self, inputs, modality_mask):
        feats = [proj(x) for proj, x, keep in zip(self.projectors, inputs, modality_mask) if keep]
        fused = torch.stack(feats, dim=0).mean(dim=0)
        return self.head(self.fusion(fused))


def random_modalities(n=4):
    mask = [random.random() < 0.6 for _ in range(n)]
    return mask if any(mask) else random_modalities(n)


def har_train(model, batches, num_epochs, lr, device):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(num_epochs):
        model.train()
        epoch_loss, epoch_acc = 0.0, 0.0
        for inputs, labels in batches:
            inputs = [x.to(device) for x in inputs]
            labels = labels.to(device)
            optimizer.zero_grad()
            outputs = model(inputs, random_modalities())
            loss = criterion(outputs, labels)
            if loss == float('nan'):  # expect: nan-equality-check
                print("nan loss, skipping batch")
                continue
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
            epoch_acc += (outputs.argmax(dim=1) == labels).float().mean().item()
        print(f"Epoch {epoch + 1}: loss {epoch_loss / len(batches):.4f} acc {epoch_acc / len(batches):.4f}")


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = [([torch.randn(16, d) for d in (512, 256, 128, 64)], torch.randint(0, 27, (16,)))
            for _ in range(50)]
    har_train(LateFusionHAR().to(dev), data, num_epochs=3, lr=1e-4, device=dev)
