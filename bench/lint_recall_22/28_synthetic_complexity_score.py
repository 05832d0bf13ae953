"""SCScore-style model: learns that products are more complex than their reactants (margin ranking)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScScoreNet(nn.Module):
    def __init__(self, n_features=1024, layer_sizes=(300, 300, 300, 300, 300), dropout=0.1, score_scale=5):
        super().__init__()
        self.dropout = dropout
        self.score_scale = score_scale
        self.input_layer = nn.Linear(n_features, layer_sizes[0])
        self.hidden_layers = nn.ModuleList(
            [nn.Linear(a, b) for a, b in zip(layer_sizes[:-1], layer_sizes[1:])])
        self.output_layer = nn.Linear(layer_sizes[-1], 1)

    def forward(self, fingerprints):
        x = F.relu(self.input_layer(fingerprints))
        if self.dropout > 0.0:
            x = F.dropout(x, p=self.dropout)  # expect: functional-dropout-always-on
        for hidden in self.hidden_layers:
            x = F.relu(hidden(x))
        score = torch.sigmoid(self.output_layer(x))
        return 1 + (self.score_scale - 1) * score


def train_epoch(model, optimizer, loader, margin=0.25, device="cpu"):
    model.train()
    total = 0.0
    for reactant_fp, product_fp in loader:
        reactant_fp, product_fp = reactant_fp.to(device), product_fp.to(device)
        s_r = model(reactant_fp).squeeze(-1)
        s_p = model(product_fp).squeeze(-1)
        loss = F.relu(margin - (s_p - s_r)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / max(len(loader), 1)


@torch.no_grad()
def score_molecules(model, fps, device="cpu"):
    model.eval()
    return model(fps.to(device)).squeeze(-1).cpu()
