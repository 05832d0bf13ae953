"""GANalyze-style training: learn a latent direction that raises an assessor score."""
import torch
import torch.nn as nn


class OneDirection(nn.Module):
    def __init__(self, dim_z):
        super().__init__()
        self.w = nn.Parameter(torch.randn(1, dim_z))

    def forward(self, z, alpha):
        return z + alpha[:, None] * self.w


def train(generator, assessor, dim_z=128, steps=1000, batch_size=32, device="cuda"):
    transformation = OneDirection(dim_z).to(device)
    optimizer = torch.optim.Adam(transformation.parameters(), lr=2e-4)
    criterion = nn.MSELoss()
    generator.eval()
    assessor.eval()
    for p in list(generator.parameters()) + list(assessor.parameters()):
        p.requires_grad_(False)
    for step in range(steps):
        z = torch.randn(batch_size, dim_z, device=device)
        alpha = torch.empty(batch_size, device=device).uniform_(-0.5, 0.5)
        with torch.no_grad():
            score = assessor(generator(z)).squeeze(1)
        target = torch.clamp(score + alpha, 0.0, 1.0)
        z_new = transformation(z, alpha)
        out_score = assessor(generator(z_new)).squeeze(1)
        loss = criterion(out_score, target)
        loss.backward()
        optimizer.step()  # expect: gradients-never-cleared
        if step % 100 == 0:
            print(step, loss.item())
    return transformation
