"""SCScore-style synthetic-complexity model trained with a pairwise hinge loss on reactions."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScScore(nn.Module):
    def __init__(self, n_features=1024, layer_sizes=(300, 300, 300, 300, 300), dropout=0.2, score_scale=5):
        super().__init__()
        self.dropout = dropout
        self.score_scale = score_scale
        sizes = [n_features] + list(layer_sizes)
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        self.out = nn.Linear(sizes[-1], 1)

    def forward(self, x):
        x = F.dropout(x, p=self.dropout)  # expect: functional-dropout-always-on
        for layer in self.layers:
            x = F.relu(layer(x))
            x = F.dropout(x, p=self.dropout)  # expect: functional-dropout-always-on
        return 1 + (self.score_scale - 1) * torch.sigmoid(self.out(x))


def hinge_pair_loss(score_reactant, score_product, margin=0.25):
    return F.relu(margin + score_reactant - score_product).mean()


def train(model, loader, epochs=20, lr=1e-3, device="cpu"):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for reactants, products in loader:
            reactants, products = reactants.to(device), products.to(device)
            loss = hinge_pair_loss(model(reactants), model(products))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: {running / len(loader):.4f}")


@torch.no_grad()
def predict(model, fingerprints):
    model.eval()
    return model(fingerprints).squeeze(-1)
