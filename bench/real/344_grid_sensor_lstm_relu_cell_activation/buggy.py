"""Grid-sensor load predictor built on a hand-written LSTM cell (the Keras `LSTM(activation='relu')` configuration): it reads 200 steps of 4 sensor channels and regresses a load indicator that depends on the last ten readings (MSE, Adam lr 3e-3, batch 32). The cell uses ReLU instead of tanh for the candidate input and for squashing the cell state, so neither the cell state nor the hidden output is bounded: over 200 recurrent steps the activations and the backpropagated gradients compound, a few Adam updates push the recurrent weights into the growing regime, and the loss blows up to astronomically large values or NaN within the first epochs.

Source: https://github.com/keras-team/keras/issues/13221 ('recurrent_dropout' with 'relu' in LSTM yields NaNs)
Report: "Any non-zero `recurrent_dropout` yields NaN losses and weights ... `activation='relu'` ... NaNs
occur within a few batches - the more layers, the sooner." -- troubleshooting: "`clipnorm=50`
(empirically determined), Nadam optimizer" did not help, while "`activation='tanh'` - no NaNs, weights
stable" (batch_shape (32, 672, 16)). Reproduced without dropout, with 1,024 synthetic 200-step sequences,
a 32-unit LSTM cell written out step by step, 6 epochs. The printed loss is the validation MSE on 256
held-out sequences, `acc` the fraction of validation targets predicted within 0.5.

expect: exploding-gradient
symptom: loss-above 10
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

T, H = 200, 32
activation = torch.relu


def sequences(n):
    x = torch.randn(n, T, 4)
    y = x[:, -10:, 0].sum(1) / 10 ** 0.5 + 0.5 * x[:, -1, 1]
    return x, y


class LSTMRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(4, 4 * H)
        self.rec = nn.Linear(H, 4 * H, bias=False)
        self.out = nn.Linear(H, 1)

    def forward(self, x):
        h = torch.zeros(x.shape[0], H)
        c = torch.zeros(x.shape[0], H)
        gx = self.inp(x)
        for t in range(x.shape[1]):
            i, f, g, o = (gx[:, t] + self.rec(h)).chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * activation(g)
            h = torch.sigmoid(o) * activation(c)
        return self.out(h).squeeze(1)


X_train, Y_train = sequences(1024)
X_val, Y_val = sequences(256)
model = LSTMRegressor()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(6):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 32):
        idx = perm[i:i + 32]
        loss = F.mse_loss(model(X_train[idx]), Y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X_val)
        val = F.mse_loss(pred, Y_val).item()
        acc = ((pred - Y_val).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4g} val {val:.4g} acc {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
