"""Iteration-based trainer for a fully convolutional segmentation net; validates every N iterations."""
import math

import numpy as np
import torch
import torch.nn.functional as F


def cross_entropy2d(score, target):
    return F.cross_entropy(score, target, ignore_index=-1)


class Trainer:
    def __init__(self, model, optimizer, train_loader, val_loader, max_iter, interval_validate=4000, device="cuda"):
        self.model = model
        self.optim = optimizer
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.max_iter = max_iter
        self.interval_validate = interval_validate
        self.device = device
        self.iteration = 0
        self.best_mean_iu = 0.0

    def validate(self):
        self.model.eval()  # expect: train-mode-not-restored
        n_class = None
        hist = None
        with torch.no_grad():
            for data, target in self.val_loader:
                data, target = data.to(self.device), target.to(self.device)
                score = self.model(data)
                n_class = score.shape[1]
                if hist is None:
                    hist = np.zeros((n_class, n_class))
                pred = score.argmax(1).cpu().numpy().ravel()
                true = target.cpu().numpy().ravel()
                keep = true >= 0
                hist += np.bincount(n_class * true[keep] + pred[keep], minlength=n_class ** 2).reshape(n_class, n_class)
        iu = np.diag(hist) / (hist.sum(1) + hist.sum(0) - np.diag(hist) + 1e-10)
        mean_iu = float(np.nanmean(iu))
        if mean_iu > self.best_mean_iu:
            self.best_mean_iu = mean_iu
            torch.save(self.model.state_dict(), "model_best.pth")

    def train_epoch(self):
        self.model.train()
        for data, target in self.train_loader:
            if self.iteration % self.interval_validate == 0:
                self.validate()
            data, target = data.to(self.device), target.to(self.device)
            self.optim.zero_grad()
            loss = cross_entropy2d(self.model(data), target)
            if math.isnan(loss.item()):
                raise ValueError("loss is nan while training")
            loss.backward()
            self.optim.step()
            self.iteration += 1
            if self.iteration >= self.max_iter:
                break

    def train(self):
        while self.iteration < self.max_iter:
            self.train_epoch()
