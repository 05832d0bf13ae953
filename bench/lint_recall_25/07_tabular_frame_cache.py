"""Tabular ResNet on a materialized, cached tensor frame (numerical + categorical columns)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def materialize(df_num, df_cat):
    mean = df_num.mean(dim=0)
    std = df_num.std(dim=0).clamp(min=1e-6)
    feat_num = (df_num - mean) / std
    col_stats = {"mean": mean, "std": std, "n_cat": int(df_cat.max()) + 1}
    return {"num": feat_num, "cat": df_cat}, col_stats


def save(tf_dict, col_stats, path):
    torch.save((tf_dict, col_stats), path)


def load(path):
    tf_dict, col_stats = torch.load(path)  # expect: torch-load-unsafe
    return tf_dict, col_stats


class TabResNet(nn.Module):
    def __init__(self, n_num, n_cat_values, n_cat_cols, dim=64, n_classes=3):
        super().__init__()
        self.cat_emb = nn.Embedding(n_cat_values, 8)
        self.inp = nn.Linear(n_num + 8 * n_cat_cols, dim)
        self.blocks = nn.ModuleList([nn.Sequential(nn.BatchNorm1d(dim), nn.ReLU(), nn.Linear(dim, dim)) for _ in range(3)])
        self.out = nn.Linear(dim, n_classes)

    def forward(self, x_num, x_cat):
        h = self.inp(torch.cat([x_num, self.cat_emb(x_cat).flatten(1)], dim=1))
        for block in self.blocks:
            h = h + block(h)
        return self.out(F.relu(h))


def main(cache="frame_cache.pt", epochs=10):
    if os.path.exists(cache):
        tf_dict, col_stats = load(cache)
    else:
        tf_dict, col_stats = materialize(torch.randn(5000, 12), torch.randint(0, 20, (5000, 4)))
        save(tf_dict, col_stats, cache)
    y = torch.randint(0, 3, (tf_dict["num"].size(0),))
    loader = DataLoader(TensorDataset(tf_dict["num"], tf_dict["cat"], y), batch_size=256, shuffle=True)
    model = TabResNet(12, col_stats["n_cat"], 4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x_num, x_cat, target in loader:
            loss = F.cross_entropy(model(x_num, x_cat), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * target.size(0)
        print(f"epoch {epoch}: loss {total / len(loader.dataset):.4f}")


if __name__ == "__main__":
    main()
