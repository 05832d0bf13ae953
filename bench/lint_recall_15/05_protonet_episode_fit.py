"""Prototypical-network classifier with episodic training and a temperature-calibration split."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProtoNet(nn.Module):
    def __init__(self, in_dim, emb_dim=64):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, emb_dim))

    def forward(self, x):
        return self.embed(x)


def prototypes(emb, y, n_classes):
    return torch.stack([emb[y == c].mean(0) for c in range(n_classes)])


class EquineProtonet:
    def __init__(self, in_dim, n_classes, device="cuda"):
        self.device = torch.device(device)
        self.n_classes = n_classes
        self.model = ProtoNet(in_dim).to(self.device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def sample_episode(self, x, y, n_shot=5):
        idx = torch.randperm(x.size(0), device=x.device)[: n_shot * self.n_classes * 2]
        half = idx.numel() // 2
        return x[idx[:half]], y[idx[:half]], x[idx[half:]], y[idx[half:]]

    def fit(self, train_x, train_y, calib_x, calib_y, episodes=500):
        train_x.to(self.device)  # expect: tensor-op-result-discarded
        train_y = train_y.to(self.device)
        calib_x = calib_x.to(self.device)
        calib_y = calib_y.to(self.device)
        self.model.train()
        for _ in range(episodes):
            sx, sy, qx, qy = self.sample_episode(train_x, train_y)
            protos = prototypes(self.model(sx), sy, self.n_classes)
            dists = torch.cdist(self.model(qx), protos)
            loss = F.cross_entropy(-dists, qy)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return self.calibrate(calib_x, calib_y)

    @torch.no_grad()
    def calibrate(self, x, y):
        self.model.eval()
        protos = prototypes(self.model(x), y, self.n_classes)
        self.model.train()
        return protos
