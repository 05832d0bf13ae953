"""Tabular regression learner: embeddings for categorical columns, MSE loss, RMSE/MSE metrics."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TabularModel(nn.Module):
    def __init__(self, emb_szs, n_cont, layers=(200, 100), out_sz=1, emb_drop=0.04):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in emb_szs])
        self.emb_drop = nn.Dropout(emb_drop)
        self.bn_cont = nn.BatchNorm1d(n_cont)
        sizes = [sum(nf for _, nf in emb_szs) + n_cont] + list(layers)
        blocks = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            blocks += [nn.Linear(a, b), nn.ReLU(inplace=True), nn.BatchNorm1d(b)]
        self.layers = nn.Sequential(*blocks, nn.Linear(sizes[-1], out_sz))

    def forward(self, x_cat, x_cont):
        x = torch.cat([e(x_cat[:, i]) for i, e in enumerate(self.embeds)], dim=1)
        x = torch.cat([self.emb_drop(x), self.bn_cont(x_cont)], dim=1)
        return self.layers(x)


def mean_squared_error(pred, targ):
    return ((pred - targ) ** 2).mean()  # expect: loss-shape-broadcast


def fit(model, train_dl, valid_dl, epochs=5, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for x_cat, x_cont, y in train_dl:
            loss = F.mse_loss(model(x_cat, x_cont).squeeze(-1), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        preds, targs = [], []
        with torch.no_grad():
            for x_cat, x_cont, y in valid_dl:
                preds.append(model(x_cat, x_cont))
                targs.append(y)
        mse = mean_squared_error(torch.cat(preds), torch.cat(targs)).item()
        print(f"epoch {epoch}: valid mse {mse:.4f} rmse {math.sqrt(mse):.4f}")


if __name__ == "__main__":
    n = 3000
    cats = torch.stack([torch.randint(0, 7, (n,)), torch.randint(0, 12, (n,))], dim=1)
    conts = torch.randn(n, 5)
    y = conts[:, 0] * 2 + cats[:, 0].float() * 0.3 + 0.1 * torch.randn(n)
    train_dl = DataLoader(TensorDataset(cats[:2500], conts[:2500], y[:2500]), batch_size=64, shuffle=True)
    valid_dl = DataLoader(TensorDataset(cats[2500:], conts[2500:], y[2500:]), batch_size=256)
    fit(TabularModel([(7, 4), (12, 6)], 5), train_dl, valid_dl)
