# Source: https://github.com/AngelaZZZ-611/reasoning_models_probing/issues/1
# Pitfall: the probe's scores go through torch.sigmoid and are then given to BCEWithLogitsLoss, which applies
#   its own sigmoid; the loss only sees values in [0.5, 0.73] and the probe's gradients shrink.
# Reproduced in our own words, not the original code.
import argparse
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class HiddenStateProbe(nn.Module):
    def __init__(self, d_model, d_hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_model, d_hidden), nn.GELU(), nn.Linear(d_hidden, 1))

    def forward(self, h):
        return self.net(h).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", default="probe_feats.pt")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()

    blob = torch.load(args.features, weights_only=True)
    feats, labels = blob["h"].float(), blob["correct"].float()
    n_pos = labels.sum()
    pos_weight = (labels.numel() - n_pos) / n_pos.clamp(min=1)
    split = int(0.8 * len(labels))
    train_dl = DataLoader(TensorDataset(feats[:split], labels[:split]), batch_size=128, shuffle=True)
    val_dl = DataLoader(TensorDataset(feats[split:], labels[split:]), batch_size=512)

    probe = HiddenStateProbe(feats.size(1))
    criterion = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    optimizer = torch.optim.AdamW(probe.parameters(), lr=args.lr, weight_decay=1e-2)

    for epoch in range(args.epochs):
        probe.train()
        for h, y in train_dl:
            prob = torch.sigmoid(probe(h))
            loss = criterion(prob, y)  # expect: sigmoid-before-bce-with-logits
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        probe.eval()
        with torch.no_grad():
            correct = sum(((probe(h) > 0).float() == y).sum().item() for h, y in val_dl)
        print(f"epoch {epoch}: val acc {correct / (len(labels) - split):.3f}")


if __name__ == "__main__":
    main()
