# Source: https://github.com/mj-will/nessai/pull/455
# Pitfall: resuming a run reloads the flow checkpoint with torch.load and no weights_only=True, which unpickles
#   arbitrary objects from the file (and triggers the FutureWarning on every resume).
# Reproduced in our own words, not the original code.
import os

import torch
import torch.nn as nn


class CouplingFlow(nn.Module):
    def __init__(self, dims=4, hidden=32):
        super().__init__()
        self.scale = nn.Sequential(nn.Linear(dims // 2, hidden), nn.Tanh(), nn.Linear(hidden, dims // 2))
        self.shift = nn.Sequential(nn.Linear(dims // 2, hidden), nn.ReLU(), nn.Linear(hidden, dims // 2))

    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        s = self.scale(a)
        return torch.cat([a, b * torch.exp(s) + self.shift(a)], dim=-1), s.sum(dim=-1)


class FlowProposal:
    def __init__(self, output_dir):
        self.output_dir = output_dir
        self.flow = CouplingFlow()
        self.optimiser = torch.optim.Adam(self.flow.parameters(), lr=1e-3)

    def save(self):
        path = os.path.join(self.output_dir, "flow.pt")
        torch.save({"flow": self.flow.state_dict(), "optim": self.optimiser.state_dict()}, path)

    def resume(self):
        path = os.path.join(self.output_dir, "flow.pt")
        checkpoint = torch.load(path, map_location="cpu")  # expect: torch-load-unsafe
        self.flow.load_state_dict(checkpoint["flow"])
        self.optimiser.load_state_dict(checkpoint["optim"])
