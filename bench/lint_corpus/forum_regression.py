"""A house-price regressor as posted to a forum ("my loss plateaus"): a trainer class
with AMP, gradient accumulation, validation every epoch and best-model restore."""
import argparse
import copy

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class PriceNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.fc1 = nn.Linear(n_features, 128)
        self.bn = nn.BatchNorm1d(128)
        self.fc2 = nn.Linear(128, 1)

    def forward(self, x):
        x = F.relu(self.bn(self.fc1(x)))
        x = F.dropout(x, p=0.3)  # expect: functional-dropout-always-on
        return self.fc2(x)


class Trainer:
    def __init__(self, model, args):
        self.model = model.cuda()
        self.args = args
        self.opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
        self.sched = torch.optim.lr_scheduler.CosineAnnealingLR(self.opt, T_max=args.epochs)
        self.scaler = torch.cuda.amp.GradScaler()
        self.best_state = None

    def train_epoch(self, loader):
        self.model.train()
        running = 0.0
        for i, (x, y) in enumerate(loader):
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            with torch.autocast("cuda", dtype=torch.float16):
                pred = self.model(x)
                loss = F.mse_loss(pred, y.view(-1))  # expect: loss-shape-broadcast
            self.scaler.scale(loss).backward()  # expect: accumulation-not-averaged
            if (i + 1) % self.args.accum == 0:
                nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)  # expect: clip-before-unscale
                self.scaler.step(self.opt)
                self.scaler.update()
                self.opt.zero_grad(set_to_none=True)
            running += loss  # expect: running-loss-keeps-graph
        return running / len(loader)

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()                             # train_epoch calls model.train() again: fine
        total, n = 0.0, 0
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            pred = self.model(x).squeeze(-1)
            total += F.mse_loss(pred, y, reduction="sum").item()
            n += y.numel()
        return total / max(n, 1)

    def fit(self, train_loader, val_loader):
        best = float("inf")
        for epoch in range(self.args.epochs):
            self.sched.step()  # expect: scheduler-before-optimizer
            train_loss = self.train_epoch(train_loader)
            val_loss = self.validate(val_loader)
            if val_loss == float("nan"):  # expect: nan-equality-check
                break
            if val_loss < best:
                best = val_loss
                self.best_state = self.model.state_dict()  # expect: state-dict-not-copied
                torch.save(copy.deepcopy(self.model.state_dict()), "best.pt")
            print(f"epoch {epoch}: train {float(train_loss):.4f} val {val_loss:.4f}")
        self.model.load_state_dict(self.best_state)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--accum", type=int, default=4)
    args = ap.parse_args()
    feats = np.random.rand(2048, 13).astype("float32")
    prices = np.random.rand(2048).astype("float32")
    train_set = TensorDataset(torch.from_numpy(feats[:1600]), torch.from_numpy(prices[:1600]))
    val_set = TensorDataset(torch.from_numpy(feats[1600:]), torch.from_numpy(prices[1600:]))
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=2, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=256, num_workers=2, pin_memory=True)
    Trainer(PriceNet(13), args).fit(train_loader, val_loader)


if __name__ == "__main__":
    main()
