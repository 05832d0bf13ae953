"""Density-map crowd counting trainer with step LR decay and MAE/MSE validation."""
import copy

import numpy as np
import torch
import torch.nn as nn
from torch import optim
from torch.optim.lr_scheduler import StepLR

LOG_PARA = 100.0


class CrowdCounter(nn.Module):
    def __init__(self):
        super().__init__()
        self.CCN = nn.Sequential(
            nn.Conv2d(3, 32, 9, padding=4), nn.ReLU(),
            nn.Conv2d(32, 16, 7, padding=3), nn.ReLU(),
            nn.Conv2d(16, 1, 1),
        )
        self.loss_mse = nn.MSELoss()

    def forward(self, img, gt_map):
        density = self.CCN(img).squeeze(1)
        self.loss = self.loss_mse(density, gt_map)
        return density


class Trainer:
    def __init__(self, train_loader, val_loader, max_epoch=100, lr=1e-5, decay_start=-1):
        self.net = CrowdCounter().cuda()
        self.optimizer = optim.Adam(self.net.CCN.parameters(), lr=lr, weight_decay=1e-4)
        self.scheduler = StepLR(self.optimizer, step_size=1, gamma=0.995)
        self.train_loader, self.val_loader = train_loader, val_loader
        self.max_epoch, self.decay_start = max_epoch, decay_start
        self.best_mae, self.best_state = 1e20, None

    def forward(self):
        for epoch in range(self.max_epoch):
            if epoch > self.decay_start:
                self.scheduler.step()  # expect: scheduler-before-optimizer
            self.train()
            self.validate(epoch)

    def train(self):
        self.net.train()
        for img, gt_map in self.train_loader:
            img, gt_map = img.cuda(), gt_map.cuda()
            self.optimizer.zero_grad()
            self.net(img, gt_map)
            loss = self.net.loss
            loss.backward()
            self.optimizer.step()

    def validate(self, epoch):
        self.net.eval()
        maes, mses = [], []
        with torch.no_grad():
            for img, gt_map in self.val_loader:
                pred_map = self.net(img.cuda(), gt_map.cuda()).cpu().numpy()
                gt = gt_map.numpy()
                for i in range(pred_map.shape[0]):
                    diff = pred_map[i].sum() / LOG_PARA - gt[i].sum() / LOG_PARA
                    maes.append(abs(diff))
                    mses.append(diff * diff)
        mae, mse = float(np.mean(maes)), float(np.sqrt(np.mean(mses)))
        if mae < self.best_mae:
            self.best_mae = mae
            self.best_state = copy.deepcopy(self.net.state_dict())
        print(f"[ep {epoch + 1}] mae {mae:.2f} mse {mse:.2f}")
