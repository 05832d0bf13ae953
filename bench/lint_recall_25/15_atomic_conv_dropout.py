"""Atomic convolution network for protein-ligand binding affinity (radial symmetry functions)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AtomicConv(nn.Module):
    def __init__(self, n_atom_types=5, radial=(1.0, 2.0, 4.0, 6.0, 8.0), layer_sizes=(32, 32, 16),
                 dropouts=0.5):
        super().__init__()
        self.register_buffer("rs", torch.tensor(radial))
        self.n_atom_types = n_atom_types
        in_dim = len(radial) * n_atom_types
        self.layers = nn.ModuleList()
        for size in layer_sizes:
            self.layers.append(nn.Linear(in_dim, size))
            in_dim = size
        self.dropouts = [dropouts] * len(layer_sizes)
        self.out = nn.Linear(in_dim, 1)

    def radial_features(self, coords, atom_types, cutoff=12.0, sigma=1.0):
        dist = torch.cdist(coords, coords)
        fc = 0.5 * (torch.cos(torch.pi * dist / cutoff) + 1.0) * (dist < cutoff).float()
        gauss = torch.exp(-((dist.unsqueeze(-1) - self.rs) ** 2) / sigma ** 2) * fc.unsqueeze(-1)
        onehot = F.one_hot(atom_types, self.n_atom_types).float()
        feats = torch.einsum("bijr,bjt->birt", gauss, onehot)
        return feats.flatten(-2)

    def forward(self, coords, atom_types):
        x = self.radial_features(coords, atom_types)
        for layer, dropout in zip(self.layers, self.dropouts):
            x = torch.tanh(layer(x))
            if dropout > 0:
                x = F.dropout(x, dropout)  # expect: functional-dropout-always-on
        return self.out(x).sum(dim=1).squeeze(-1)


def fit(model, batches, epochs=10, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for coords, types, y in batches:
            loss = F.mse_loss(model(coords, types), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: mse {total / len(batches):.4f}")


@torch.no_grad()
def predict(model, coords, types):
    model.eval()
    return model(coords, types)


if __name__ == "__main__":
    data = [(torch.randn(4, 30, 3) * 5, torch.randint(0, 5, (4, 30)), torch.randn(4)) for _ in range(8)]
    net = AtomicConv()
    fit(net, data)
    print(predict(net, *data[0][:2]))
