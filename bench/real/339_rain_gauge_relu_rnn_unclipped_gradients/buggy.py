"""Rain-gauge accumulation model: a single-layer ReLU RNN (32 units) reads a 100-step series of per-minute gauge increments and predicts, at every step, the rainfall accumulated over the last five minutes (MSE, SGD with momentum 0.9, lr 0.05). Backpropagation through 100 unbounded ReLU recurrences lets the gradient norm grow multiplicatively whenever the recurrent weights drift above unit gain; with nothing bounding the update, one batch produces a gradient in the thousands, the step throws the weights far away, activations overflow and the loss turns to NaN in the first epoch and never recovers.

Source: https://github.com/apache/mxnet/issues/8096 (Mxnet produce 'nan' training error!)
Report: "I build my own model by mx.sym interface. I then starts the training progress. It performs well at
the beginning epochs. It then produce the 'nan' training and validation errors." -- answers: "May be
gradient explosion ... or decrease learning rate." and "specify `clip_gradient` in the optimizer also
helps". Reproduced with 2,000 synthetic 100-minute gauge series (standard-normal increments, target =
sum of the last five increments), nn.RNN(nonlinearity="relu"), batch 32, 8 epochs; the pre-clipping
gradient norm of every step is tracked and its epoch maximum printed. The printed loss is the validation
MSE on 500 held-out series, `acc` the fraction of validation steps predicted within 0.5 mm of the target.

expect: exploding-gradient
symptom: nonfinite
batch: 20
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T = 100
MAX_GRAD_NORM = float("inf")


def gauge_series(n):
    x = torch.randn(n, T)
    y = torch.stack([x[:, max(0, t - 4):t + 1].sum(1) for t in range(T)], 1)
    return x, y


class Accumulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(1, 32, batch_first=True, nonlinearity="relu")
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(self.rnn(x[..., None])[0]).squeeze(-1)


X_train, Y_train = gauge_series(2000)
X_val, Y_val = gauge_series(500)
model = Accumulator()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(8):
    perm = torch.randperm(len(X_train))
    peak = 0.0
    for i in range(0, len(X_train), 32):
        idx = perm[i:i + 32]
        loss = F.mse_loss(model(X_train[idx]), Y_train[idx])
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
        if torch.isfinite(norm):
            peak = max(peak, norm.item())
        opt.step()
    with torch.no_grad():
        pred = model(X_val)
        val = F.mse_loss(pred, Y_val).item()
        acc = ((pred - Y_val).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} acc {acc:.3f} peak grad norm {peak:.3g}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
