# Source: https://github.com/ejnnr/cupbearer/pull/35
# Pitfall: the anomaly-detector probe returns raw logits from a Linear layer but the loss is
#   F.binary_cross_entropy, which expects probabilities in [0, 1]; it errors off MPS and is meaningless otherwise.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivationProbe(nn.Module):
    def __init__(self, d_model=256):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.linear = nn.Linear(d_model, 1)

    def forward(self, acts):
        return self.linear(self.norm(acts)).squeeze(-1)


def train_probe(probe, loader, epochs=3, lr=1e-3):
    opt = torch.optim.Adam(probe.parameters(), lr=lr)
    for _ in range(epochs):
        probe.train()
        for acts, is_anomalous in loader:
            opt.zero_grad()
            logits = probe(acts)
            loss = F.binary_cross_entropy(logits, is_anomalous.float())  # expect: bce-on-logits
            loss.backward()
            opt.step()
    return probe
