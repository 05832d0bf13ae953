"""Class-incremental learning with bias correction (BiC-style): distillation on the old classes."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class BiasLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(1))
        self.beta = nn.Parameter(torch.zeros(1))

    def forward(self, x, new_classes):
        x = x.clone()
        x[:, new_classes] = self.alpha * x[:, new_classes] + self.beta
        return x


class BiCTrainer:
    def __init__(self, model, lr=0.1, T=2.0, device="cuda"):
        self.model = model.to(device)
        self.old_model = None
        self.T = T
        self.device = device
        self.lr = lr
        self.seen_classes = []

    def distill(self, new_outputs, old_outputs):
        soft_targets = F.softmax(old_outputs / self.T, dim=0)  # expect: softmax-over-batch-dim
        return F.cross_entropy(new_outputs / self.T, soft_targets)

    def train_task(self, dataset, new_classes, epochs=10, batch_size=128):
        loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=4)
        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9, weight_decay=2e-4)
        old_classes = list(self.seen_classes)
        n_old, n_new = len(old_classes), len(new_classes)
        lam = n_old / (n_old + n_new) if n_old else 0.0
        for _ in range(epochs):
            self.model.train()
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                out = self.model(x)
                loss = F.cross_entropy(out, y)
                if self.old_model is not None:
                    with torch.no_grad():
                        out_old = self.old_model(x)
                    kd = self.distill(out[:, old_classes], out_old[:, old_classes])
                    loss = (1 - lam) * loss + lam * kd
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        self.seen_classes += list(new_classes)
        self.old_model = copy.deepcopy(self.model).eval()
        for p in self.old_model.parameters():
            p.requires_grad_(False)
