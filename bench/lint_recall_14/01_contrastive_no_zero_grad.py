"""SimCLR-style contrastive pretraining loop (NT-Xent loss)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class ProjectionNet(nn.Module):
    def __init__(self, backbone, feat_dim=512, out_dim=128):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, out_dim))

    def forward(self, x):
        return self.head(self.backbone(x))


def nt_xent(z_i, z_j, temperature=0.5):
    z = F.normalize(torch.cat([z_i, z_j], dim=0), dim=1)
    n = z_i.size(0)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def pretrain(model, dataset, epochs=100, batch_size=256, device="cuda"):
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=True, num_workers=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, weight_decay=1e-6)
    model.to(device)
    model.train()
    for epoch in range(epochs):
        total = 0.0
        for (xi, xj), _ in loader:
            xi, xj = xi.to(device), xj.to(device)
            loss = nt_xent(model(xi), model(xj))
            loss.backward()
            optimizer.step()  # expect: gradients-never-cleared
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")
    return model
