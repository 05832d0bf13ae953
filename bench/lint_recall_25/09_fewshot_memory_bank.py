"""Few-shot image classification: CLIP-like features plus a learnable memory-bank adapter."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MemoryBankModel(nn.Module):
    def __init__(self, keys, values, alpha=1.0, beta=5.5):
        super().__init__()
        self.adapter = nn.Linear(keys.size(1), keys.size(0), bias=False)
        self.adapter.weight.data.copy_(keys)
        self.register_buffer("values", values)
        self.alpha = alpha
        self.beta = beta

    def forward(self, feats, zero_shot_logits):
        affinity = self.adapter(feats)
        cache_logits = torch.exp(-self.beta * (1 - affinity)) @ self.values
        return zero_shot_logits + self.alpha * cache_logits


def load_feature_extractor(path):
    ckpt = torch.load(path, map_location="cpu")  # expect: torch-load-unsafe
    encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512))
    encoder.load_state_dict(ckpt["state_dict"])
    return encoder.eval()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bank_dir", default="bank")
    parser.add_argument("--shots", type=int, default=16)
    parser.add_argument("--encoder", default="encoder.ckpt")
    parser.add_argument("--train_epoch", type=int, default=20)
    args = parser.parse_args()

    encoder = load_feature_extractor(args.encoder)
    n_cls = 10
    imgs = torch.randn(n_cls * args.shots, 3, 32, 32)
    labels = torch.arange(n_cls).repeat_interleave(args.shots)
    text_weights = F.normalize(torch.randn(512, n_cls), dim=0)
    with torch.no_grad():
        keys = F.normalize(encoder(imgs), dim=-1)
    values = F.one_hot(labels, n_cls).float()
    memory_bank_model = MemoryBankModel(keys, values)
    optimizer = torch.optim.AdamW(memory_bank_model.parameters(), lr=1e-3, eps=1e-4)
    loader = DataLoader(TensorDataset(imgs, labels), batch_size=32, shuffle=True)
    best_acc = 0.0
    os.makedirs(args.bank_dir, exist_ok=True)
    ckpt_path = os.path.join(args.bank_dir, f"best_F_{args.shots}shots.pt")
    for epoch in range(args.train_epoch):
        memory_bank_model.train()
        correct = 0
        for x, y in loader:
            with torch.no_grad():
                feats = F.normalize(encoder(x), dim=-1)
            logits = memory_bank_model(feats, 100.0 * feats @ text_weights)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(dim=-1) == y).sum().item()
        acc = correct / len(loader.dataset)
        if acc > best_acc:
            best_acc = acc
            torch.save(memory_bank_model.state_dict(), ckpt_path)
    memory_bank_model.load_state_dict(torch.load(ckpt_path))  # expect: torch-load-unsafe
    print(f"best train accuracy {best_acc:.3f}")


if __name__ == "__main__":
    main()
