"""Minimal self-attention classifier on sequences; per-epoch averaged loss and accuracy."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class NakedAttention(nn.Module):
    def __init__(self, num_features, num_classes, dim=32):
        super().__init__()
        self.query = nn.Linear(num_features, dim)
        self.key = nn.Linear(num_features, dim)
        self.value = nn.Linear(num_features, dim)
        self.out = nn.Linear(dim, num_classes)

    def forward(self, x):
        q, k, v = self.query(x), self.key(x), self.value(x)
        w = torch.softmax(q @ k.transpose(1, 2) / k.shape[-1] ** 0.5, dim=-1)
        return self.out((w @ v).mean(dim=1))


xs = torch.randn(4096, 20, 12)
ys = (xs[:, :, 0].mean(dim=1) > 0).long()
loader_train = DataLoader(TensorDataset(xs[:3584], ys[:3584]), batch_size=64, shuffle=True)
loader_val = DataLoader(TensorDataset(xs[3584:], ys[3584:]), batch_size=256)

model = NakedAttention(12, 2).to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(40):
    e_train, a_train = 0.0, 0.0
    model.train()
    for x_batch, y_batch in loader_train:
        x_batch, y_batch = x_batch.to(device), y_batch.to(device)
        logits = model(x_batch)
        e_batch = loss_fn(logits, y_batch)
        a_batch = (logits.argmax(dim=1) == y_batch).float().mean().item()
        optimizer.zero_grad()
        e_batch.backward()
        optimizer.step()
        e_train += e_batch / len(loader_train)  # expect: running-loss-keeps-graph
        a_train += a_batch / len(loader_train)

    model.eval()
    e_val, a_val = 0.0, 0.0
    with torch.no_grad():
        for x_batch, y_batch in loader_val:
            x_batch, y_batch = x_batch.to(device), y_batch.to(device)
            logits = model(x_batch)
            e_val += loss_fn(logits, y_batch).item() / len(loader_val)
            a_val += (logits.argmax(dim=1) == y_batch).float().mean().item() / len(loader_val)
    print(f"epoch {epoch}: train {float(e_train):.4f}/{a_train:.3f} val {e_val:.4f}/{a_val:.3f}")
