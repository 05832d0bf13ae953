# Source: https://github.com/yastrebksv/TennisCourtDetector/commit/e5cd4f1ce26b15361700d3d89e068cbf0e82749e
# Pitfall: the heatmap-regression training loop calls backward() and optimizer.step() each iteration but never
#   clears the gradients, so every step applies the running sum of all earlier gradients.
# Reproduced in our own words, not the original code.
import argparse
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def train_epoch(model, loader, criterion, optimizer, device, epoch, max_iters=1000):
    model.train()
    losses = []
    for it, (images, heatmaps) in enumerate(loader):
        pred = torch.sigmoid(model(images.float().to(device)))
        loss = criterion(pred, heatmaps.float().to(device))
        loss.backward()  # expect: gradients-never-cleared
        optimizer.step()
        losses.append(loss.item())
        if it % 50 == 0:
            print(f"train epoch {epoch} iter {it}/{max_iters} loss {loss.item():.5f}")
        if it >= max_iters:
            break
    return float(np.mean(losses))


@torch.no_grad()
def val_epoch(model, loader, criterion, device):
    model.eval()
    losses = [criterion(torch.sigmoid(model(x.float().to(device))), y.float().to(device)).item() for x, y in loader]
    model.train()
    return float(np.mean(losses))


def main(model, train_set, val_set):
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch_size", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-5)
    ap.add_argument("--epochs", type=int, default=500)
    args = ap.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = model.to(device)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=1, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=args.batch_size, num_workers=1, pin_memory=True)
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.999), weight_decay=0)
    best = float("inf")
    for epoch in range(args.epochs):
        train_loss = train_epoch(model, train_loader, criterion, optimizer, device, epoch)
        val_loss = val_epoch(model, val_loader, criterion, device)
        print(f"epoch {epoch}: train {train_loss:.5f} val {val_loss:.5f}")
        if val_loss < best:
            best = val_loss
            torch.save(model.state_dict(), "model_best.pt")
