"""Tile-based source detector: per-tile regression of a 'convergence' map, gated by an on/off mask."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TileEncoder(nn.Module):
    def __init__(self, n_bands=5, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(n_bands, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 3, padding=1), nn.ReLU(),
        )
        self.on_head = nn.Conv2d(hidden, 1, 1)
        self.conv_head = nn.Conv2d(hidden, 1, 1)

    def forward(self, images):
        h = self.net(images)
        on_logits = self.on_head(h).permute(0, 2, 3, 1).squeeze(-1)      # (b, h, w)
        convergence = self.conv_head(h).permute(0, 2, 3, 1)              # (b, h, w, 1)
        return on_logits, convergence


def catalog_loss(on_logits, convergence, true_on, true_convergence):
    # true_on: (b, h, w) in {0, 1}; true_convergence: (b, h, w)
    on_loss = F.binary_cross_entropy_with_logits(on_logits, true_on)
    pred_conv = convergence.reshape(-1, 1)         # (n_tiles, 1)
    target_conv = true_convergence.reshape(-1)     # (n_tiles,)
    gate = true_on.reshape(-1)                     # (n_tiles,)
    per_tile = (pred_conv - target_conv) ** 2  # expect: loss-shape-broadcast
    conv_loss = (per_tile * gate).sum() / gate.sum().clamp(min=1.0)
    return on_loss + conv_loss


def train(encoder, batches, epochs=3, lr=1e-3):
    optimizer = torch.optim.Adam(encoder.parameters(), lr=lr)
    for epoch in range(epochs):
        encoder.train()
        for images, true_on, true_conv in batches:
            optimizer.zero_grad()
            on_logits, conv = encoder(images)
            loss = catalog_loss(on_logits, conv, true_on, true_conv)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    data = [(torch.randn(4, 5, 20, 20), (torch.rand(4, 20, 20) < 0.2).float(), torch.randn(4, 20, 20))
            for _ in range(5)]
    train(TileEncoder(), data)
