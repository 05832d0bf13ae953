"""Recurrent multi-view state model -- fixed as the maintainer suggests: the gradient norm is clipped to
1.0 before each optimizer step (clip_grad_norm_, which also returns the norm that was printed
before); nothing else changed.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

n, V, D, S = 2000, 16, 24, 64
scene = torch.randn(n, 1, 3)
drift = 0.1 * torch.randn(n, V, 3).cumsum(1)
pos = scene + drift
mixing = torch.randn(3, D)
views = torch.tanh(pos @ mixing) + 0.05 * torch.randn(n, V, D)
targets = pos.cumsum(1) / torch.arange(1, V + 1).view(1, V, 1)


class RecurrentState(nn.Module):
    def __init__(self):
        super().__init__()
        self.A = nn.Linear(S, S, bias=False)
        self.B = nn.Linear(D, S)
        self.head = nn.Linear(S, 3)
        nn.init.normal_(self.A.weight, std=1.5 / S ** 0.5)
        nn.init.normal_(self.B.weight, std=1.5 / D ** 0.5)

    def forward(self, views):
        state = torch.zeros(views.shape[0], S)
        outs = []
        for t in range(views.shape[1]):
            state = state + torch.tanh(self.A(state) + self.B(views[:, t]))
            outs.append(self.head(state))
        return torch.stack(outs, 1)


model = RecurrentState()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
mse = nn.MSELoss()
Xtr, ytr, Xva, yva = views[:1600], targets[:1600], views[1600:], targets[1600:]

for epoch in range(10):
    order = torch.randperm(1600)
    for i in range(0, 1600, 50):
        idx = order[i:i + 50]
        loss = mse(model(Xtr[idx]), ytr[idx])
        opt.zero_grad()
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0).item()
        opt.step()
    with torch.no_grad():
        pred = model(Xva)
        val = mse(pred, yva).item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} grad_norm {gnorm:.1f}")

within = ((pred - yva).abs() < 0.3).float().mean().item()
print(f"final_loss={val:.6g} acc={within:.4f}")
