"""Optimise an input embedding directly (feature inversion) on the GPU."""
import argparse

import numpy as np
import torch
import torch.nn as nn


class FeatureNet(nn.Module):
    def __init__(self, in_dim=128, hidden=256, out_dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.net(x)


def invert_features(model: nn.Module, target_feat: torch.Tensor, init: np.ndarray, steps=300, lr=0.05):
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    x = torch.tensor(init, dtype=torch.float, requires_grad=True).cuda()  # expect: non-leaf-parameter
    optimizer = torch.optim.Adam([x], lr=lr)
    for step in range(steps):
        optimizer.zero_grad()
        feat = model(x)
        loss = ((feat - target_feat) ** 2).mean() + 1e-4 * x.pow(2).sum()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print(step, loss.item())
    return x.detach().cpu().numpy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args()
    model = FeatureNet().cuda()
    model.load_state_dict(torch.load("feature_net.pt", weights_only=True))
    target_feat = torch.randn(1, 64, device="cuda")
    init = np.random.randn(1, 128).astype(np.float32)
    recovered = invert_features(model, target_feat, init, steps=args.steps, lr=args.lr)
    np.save("recovered_input.npy", recovered)


if __name__ == "__main__":
    main()
