# Source: https://github.com/gjy3035/C-3-Framework/issues/96
# Pitfall: the trainer steps the learning-rate scheduler at the start of each epoch, before any
# optimizer.step() of that epoch (PyTorch >= 1.1 warns), shifting the decay schedule by one epoch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class DensityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(64, 1, 1))

    def forward(self, img):
        return F.interpolate(self.body(img), scale_factor=4, mode="bilinear", align_corners=False)


class Trainer:
    def __init__(self, cfg, train_loader, val_loader):
        self.cfg = cfg
        self.net = DensityNet()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg["lr"], weight_decay=1e-4)
        self.scheduler = StepLR(self.optimizer, step_size=cfg["num_epoch_lr_decay"], gamma=cfg["lr_decay"])
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.best_mae = float("inf")

    def forward(self):
        for epoch in range(self.cfg["max_epoch"]):
            if epoch > self.cfg["lr_decay_start"]:
                self.scheduler.step()  # expect: scheduler-before-optimizer
            self.train()
            mae = self.validate()
            print(epoch, mae, self.optimizer.param_groups[0]["lr"])

    def train(self):
        self.net.train()
        for img, gt_map in self.train_loader:
            self.optimizer.zero_grad()
            pred_map = self.net(img)
            loss = F.mse_loss(pred_map, gt_map)
            loss.backward()
            self.optimizer.step()

    def validate(self):
        self.net.eval()
        errors = []
        with torch.no_grad():
            for img, gt_map in self.val_loader:
                pred_cnt = self.net(img).sum(dim=(1, 2, 3))
                gt_cnt = gt_map.sum(dim=(1, 2, 3))
                errors.append((pred_cnt - gt_cnt).abs())
        self.net.train()
        mae = torch.cat(errors).mean().item()
        self.best_mae = min(self.best_mae, mae)
        return mae


if __name__ == "__main__":
    imgs, maps = torch.rand(32, 3, 64, 64), torch.rand(32, 1, 64, 64) * 0.01
    cfg = {"lr": 1e-4, "num_epoch_lr_decay": 1, "lr_decay": 0.995, "max_epoch": 3, "lr_decay_start": -1}
    Trainer(cfg, DataLoader(TensorDataset(imgs, maps), batch_size=4, shuffle=True),
            DataLoader(TensorDataset(imgs[:8], maps[:8]), batch_size=4)).forward()
