# Source: https://github.com/lucidrains/byol-pytorch/issues/93
# Pitfall: the trainer zeroes the gradients right after backward and before the optimizer
#   step, so the step always sees zero gradients and the online network never learns.
# Reproduced in our own words, not the original code.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfSupervised(nn.Module):
    def __init__(self, backbone, dim=256, pred_hidden=1024):
        super().__init__()
        self.online = nn.Sequential(backbone, nn.Linear(512, dim))
        self.predictor = nn.Sequential(nn.Linear(dim, pred_hidden), nn.ReLU(), nn.Linear(pred_hidden, dim))
        self.target = copy.deepcopy(self.online)
        for p in self.target.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update_target(self, tau=0.99):
        for t, o in zip(self.target.parameters(), self.online.parameters()):
            t.mul_(tau).add_(o, alpha=1 - tau)

    def forward(self, view_a, view_b):
        p_a = self.predictor(self.online(view_a))
        p_b = self.predictor(self.online(view_b))
        with torch.no_grad():
            z_a = self.target(view_a)
            z_b = self.target(view_b)
        loss_ab = 2 - 2 * F.cosine_similarity(p_a, z_b, dim=-1)
        loss_ba = 2 - 2 * F.cosine_similarity(p_b, z_a, dim=-1)
        return (loss_ab + loss_ba).mean()


class PretrainLoop:
    def __init__(self, learner, loader, lr=3e-4, device="cuda"):
        self.learner = learner.to(device)
        self.loader = loader
        self.device = device
        self.opt = torch.optim.Adam(learner.parameters(), lr=lr)

    def run(self, epochs):
        for epoch in range(epochs):
            for view_a, view_b in self.loader:
                view_a = view_a.to(self.device)
                view_b = view_b.to(self.device)
                loss = self.learner(view_a, view_b)
                loss.backward()
                self.opt.zero_grad()  # expect: grad-cleared-before-step
                self.opt.step()
                self.learner.update_target()
            print(f"epoch {epoch} last loss {loss.item():.4f}")
