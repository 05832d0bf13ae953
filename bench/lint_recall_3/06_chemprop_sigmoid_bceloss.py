# Source: https://github.com/wengong-jin/chemprop/issues/7
# Pitfall: The property predictor squashes its output with a sigmoid and trains with nn.BCELoss, which
# is numerically unstable for saturated outputs; the fix was to drop the sigmoid and use BCEWithLogitsLoss.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class MoleculeClassifier(nn.Module):
    def __init__(self, fp_dim, hidden, n_tasks):
        super().__init__()
        self.ffn = nn.Sequential(
            nn.Linear(fp_dim, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, n_tasks)
        )
        self.act = nn.Sigmoid()

    def forward(self, fingerprints):
        return self.act(self.ffn(fingerprints))


def train_one_epoch(model, loader, optimizer, device):
    criterion = nn.BCELoss(reduction="none")
    model.train()
    total, count = 0.0, 0
    for fps, targets, mask in loader:
        fps, targets, mask = fps.to(device), targets.to(device), mask.to(device)
        optimizer.zero_grad()
        preds = model(fps)
        per_task = criterion(preds, targets) * mask  # expect: sigmoid-before-bce
        loss = per_task.sum() / mask.sum()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    return total / max(count, 1)
