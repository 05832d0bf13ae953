"""TabTransformer fit loop with early stopping, in the style of a benchmark wrapper."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TabTransformer(nn.Module):
    def __init__(self, cat_cardinalities, n_cont, dim=32, depth=4, heads=8, out_dim=1):
        super().__init__()
        self.embeds = nn.ModuleList([nn.Embedding(c, dim) for c in cat_cardinalities])
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 4, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(n_cont)
        self.mlp = nn.Sequential(nn.Linear(dim * len(cat_cardinalities) + n_cont, 128), nn.ReLU(), nn.Linear(128, out_dim))

    def forward(self, x_categ, x_cont):
        tokens = torch.stack([emb(x_categ[:, i]) for i, emb in enumerate(self.embeds)], dim=1)
        ctx = self.encoder(tokens).flatten(1)
        return self.mlp(torch.cat([ctx, self.norm(x_cont)], dim=1))


class TabTransformerWrapper:
    def __init__(self, args, cat_cardinalities, n_cont):
        self.args = args
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = TabTransformer(cat_cardinalities, n_cont).to(self.device)

    def fit(self, X_cat, X_cont, y, X_val_cat, X_val_cont, y_val):
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.args["lr"])
        loss_func = nn.MSELoss()
        train_loader = DataLoader(TensorDataset(X_cat, X_cont, y), batch_size=self.args["batch_size"], shuffle=True)
        val_loader = DataLoader(TensorDataset(X_val_cat, X_val_cont, y_val), batch_size=self.args["val_batch_size"])

        min_val_loss, min_val_loss_idx = float("inf"), 0
        loss_history, val_loss_history = [], []
        for epoch in range(self.args["epochs"]):
            self.model.train()
            for x_categ, x_cont, batch_y in train_loader:
                out = self.model(x_categ.to(self.device), x_cont.to(self.device)).squeeze(-1)
                loss = loss_func(out, batch_y.to(self.device))
                loss_history.append(loss)  # expect: running-loss-keeps-graph

                optimizer.zero_grad()
                loss.backward()
                optimizer.step()

            self.model.eval()
            val_loss, val_dim = 0.0, 0
            with torch.no_grad():
                for x_categ, x_cont, batch_y in val_loader:
                    out = self.model(x_categ.to(self.device), x_cont.to(self.device)).squeeze(-1)
                    val_loss += loss_func(out, batch_y.to(self.device)).item()
                    val_dim += 1
            val_loss /= max(val_dim, 1)
            val_loss_history.append(val_loss)
            print("Epoch %d: Val Loss %.5f" % (epoch, val_loss))

            if val_loss < min_val_loss:
                min_val_loss, min_val_loss_idx = val_loss, epoch
            if min_val_loss_idx + self.args["early_stopping_rounds"] < epoch:
                print("Early stopping applies.")
                break
        return loss_history, val_loss_history


if __name__ == "__main__":
    n = 4096
    cats = torch.stack([torch.randint(0, c, (n,)) for c in (5, 12, 7)], dim=1)
    conts = torch.randn(n, 6)
    target = torch.randn(n)
    args = {"lr": 1e-3, "batch_size": 128, "val_batch_size": 256, "epochs": 50, "early_stopping_rounds": 5}
    wrapper = TabTransformerWrapper(args, (5, 12, 7), 6)
    hist, val_hist = wrapper.fit(cats[:3500], conts[:3500], target[:3500], cats[3500:], conts[3500:], target[3500:])
    print(np.mean(val_hist))
