"""Recurrent multi-view reconstruction model in the CUT3R style, reduced to its recurrence: a
persistent state vector is updated by every incoming view with an ungated residual update
(state <- state + tanh(A state + B view)), and after each view a head reads a per-view target
(a 3-D point summary) from the state; the loss is the MSE over all views, SGD with momentum.
Trained on sequences of 16 views, the Jacobian of the state through 16 residual updates multiplies
the gradient of the early views by a factor in the thousands; with no gradient clipping the
first large gradients throw the recurrent weights far out, the state and its gradient grow without
bound and the loss ends as NaN.

Source: https://github.com/CUT3R/CUT3R/issues/88 (Exponential grad norm growth as sequence length increase)
Report: "Training with 4 views works fine (The grad norm is about 1). But as training view increases
to 16, grad norm suddenly explode to the magnitude of 100000 ... I think this has something to do
with the RNN nature of CUT3R." -- maintainer: "It sounds like it's running into gradient explosion
due to the RNN's recurrent nature. If you don't want to change the architecture, gradient norm
clipping seems to be the only fix." Reproduced with 2,000 synthetic sequences of 16 views (each view
a 24-dimensional feature vector of a slowly moving scene, the target a 3-D running summary of the
scene), state size 64, A and B drawn with standard deviation 1.5/sqrt(fan-in), SGD lr 0.01 momentum
0.9, batches of 50, 10 epochs, no clipping. The printed loss is the validation MSE, `acc` the share
of validation targets predicted within 0.3.

expect: exploding-gradient
symptom: nonfinite
batch: 12
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
        gnorm = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
        opt.step()
    with torch.no_grad():
        pred = model(Xva)
        val = mse(pred, yva).item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} grad_norm {gnorm:.1f}")

within = ((pred - yva).abs() < 0.3).float().mean().item()
print(f"final_loss={val:.6g} acc={within:.4f}")
