"""Few-shot anomaly detection: train a feature memory bank per shot count, then score test images."""
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryBank(nn.Module):
    def __init__(self, feat_dim=512, size=1024):
        super().__init__()
        self.bank = nn.Parameter(torch.randn(size, feat_dim) * 0.01)

    def forward(self, feats):
        d = torch.cdist(feats, self.bank)
        return d.min(dim=1).values


def train_bank(bank, encoder, loader, epochs, device):
    opt = torch.optim.Adam(bank.parameters(), lr=1e-3)
    encoder.eval()
    bank.train()
    for _ in range(epochs):
        for images, _ in loader:
            images = images.to(device)
            with torch.no_grad():
                feats = F.normalize(encoder(images), dim=1)
            opt.zero_grad()
            loss = bank(feats).mean()
            loss.backward()
            opt.step()
    return bank


def score_test(args, encoder, test_loader, device):
    memory_bank_model = MemoryBank().to(device)
    memory_bank_model.load_state_dict(torch.load(args.bank_dir + "/best_F_" + str(args.shots) + "shots.pt"))  # expect: torch-load-unsafe
    memory_bank_model.eval()
    encoder.eval()
    scores = []
    with torch.no_grad():
        for images, _ in test_loader:
            feats = F.normalize(encoder(images.to(device)), dim=1)
            scores.append(memory_bank_model(feats).cpu())
    return torch.cat(scores)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--bank_dir", default="./banks")
    p.add_argument("--shots", type=int, default=4)
    p.add_argument("--epochs", type=int, default=20)
    return p.parse_args()
