"""Coarse-grained molecular model: learn a free-energy network by force matching."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


class CGnet(nn.Module):
    def __init__(self, n_beads, width=128):
        super().__init__()
        self.n_beads = n_beads
        self.energy = nn.Sequential(nn.Linear(n_beads * 3, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))

    def forward(self, coords):
        coords = coords.requires_grad_(True)
        energy = self.energy(coords.view(coords.size(0), -1))
        forces = -torch.autograd.grad(energy.sum(), coords, create_graph=True)[0]
        return energy, forces


def force_loss(pred, target):
    return ((pred - target) ** 2).mean()


if __name__ == "__main__":
    n_beads, num_epochs = 5, 3
    coords = torch.randn(256, n_beads, 3)
    forces = torch.randn(256, n_beads, 3)
    trainloader = DataLoader(TensorDataset(coords, forces), batch_size=32, shuffle=True)
    net = CGnet(n_beads)
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[2], gamma=0.5)
    for epoch in range(1, num_epochs + 1):
        scheduler.step()  # expect: scheduler-before-optimizer
        train_loss = 0.0
        n = 0
        for num, batch in tqdm(enumerate(trainloader), total=len(trainloader)):
            optimizer.zero_grad()
            coord, force = batch
            _, pred_force = net(coord)
            loss = force_loss(pred_force, force)
            loss.backward()
            optimizer.step()
            train_loss += loss.detach().item()
            n += 1
        print(epoch, train_loss / n)
