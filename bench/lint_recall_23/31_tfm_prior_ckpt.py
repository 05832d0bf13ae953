"""Prior-fitted tabular foundation model: train on synthetic tasks and reload the checkpoint."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def sample_prior_batch(batch_size=16, n_rows=128, n_features=10, n_classes=3):
    x = torch.randn(batch_size, n_rows, n_features)
    w = torch.randn(batch_size, n_features, n_classes)
    y = torch.einsum("brf,bfc->brc", x, w).argmax(dim=-1)
    return x, y


class TabularTransformer(nn.Module):
    def __init__(self, n_features=10, n_classes=3, dim=128, layers=4):
        super().__init__()
        self.x_enc = nn.Linear(n_features, dim)
        self.y_enc = nn.Embedding(n_classes, dim)
        block = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=256, batch_first=True)
        self.encoder = nn.TransformerEncoder(block, num_layers=layers)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x, y_train, n_train):
        h = self.x_enc(x)
        h[:, :n_train] = h[:, :n_train] + self.y_enc(y_train)
        return self.head(self.encoder(h)[:, n_train:])


def save_checkpoint(path, model, optimizer, step):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)


def load_checkpoint(path, model, optimizer):
    checkpoint = torch.load(path, map_location="cpu", weights_only=False)  # expect: torch-load-unsafe
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint["step"]


def train(steps=10_000, n_train=96, ckpt="tfm.ckpt", resume=False):
    model = TabularTransformer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.0)
    start = load_checkpoint(ckpt, model, optimizer) if resume else 0
    model.train()
    for step in range(start, steps):
        x, y = sample_prior_batch()
        logits = model(x, y[:, :n_train], n_train)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y[:, n_train:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if (step + 1) % 500 == 0:
            save_checkpoint(ckpt, model, optimizer, step + 1)
            print(f"step {step + 1}: {loss.item():.4f}")


if __name__ == "__main__":
    train()
