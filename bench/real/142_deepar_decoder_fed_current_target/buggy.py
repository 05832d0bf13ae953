"""DeepAR-style autoregressive LSTM forecaster for daily store demand whose decoder input at step t is the (scaled) target of step t itself instead of the lagged target of step t-1: the network copies its input and the teacher-forced loss drops far below the noise floor of the series.

Source: https://github.com/sktime/pytorch-forecasting/issues/182 (Is there leakage?)
Report: DeepAR's validation loss was suspiciously good; tracing it: "Its pretty hardcore! The
scaled target is being fed straight in", with the target position in the decoder input not
overwritten by the previous value ("I think 1 possible bug is that the below block does not over
ride the target variable ... maybe because target_pos is incorrect"); labelled a bug, the cure is
to feed the autoregressive input lagged by one step. Reproduced with pytorch-forecasting's DeepAR
data flow in miniature (series scaled by their encoder mean as a GroupNormalizer would,
encoder + decoder windows of 56 + 14 days, the scaled target as an autoregressive continuous input
next to day-of-week features, LSTM 2 x 40, Gaussian head trained with the normal NLL, Adam,
teacher forcing) on 240 synthetic store-item series (level, trend, weekly pattern, noise). The
printed loss is the teacher-forced validation MSE of the scaled decoder targets (the multiplicative
day-to-day noise alone gives ~0.045), `acc` the share of decoder days forecast within 25 % of the truth when the model has to
run autoregressively on its own predictions.

expect: target-leakage
symptom: loss-below 0.015
batch: 8
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

N_SERIES, ENC, DEC = 240, 56, 14
T = ENC + DEC + 1
t = torch.arange(T).float()
level = 20 + 80 * torch.rand(N_SERIES, 1)
trend = 0.004 * torch.randn(N_SERIES, 1)
weekly = 1 + 0.3 * torch.randn(N_SERIES, 7).clamp(-2, 2)
dow = (t.long() + torch.randint(0, 7, (N_SERIES, 1))) % 7
demand = level * (1 + trend * t) * weekly.gather(1, dow) * (1 + 0.2 * torch.randn(N_SERIES, T))
demand = demand.clamp(min=0)

scale = demand[:, :ENC].mean(1, keepdim=True)          # GroupNormalizer-like per-series scale
target = demand / scale
dow_onehot = F.one_hot(dow, 7).float()

perm = torch.randperm(N_SERIES)
train_ids, val_ids = perm[:200], perm[200:]


def model_inputs(target, dow_onehot):
    """Continuous decoder/encoder inputs: autoregressive target + day-of-week features."""
    target_in = target[:, 1:]                          # target position of the input vector
    return torch.cat([target_in.unsqueeze(-1), dow_onehot[:, 1:]], dim=-1), target[:, 1:]


class DeepAR(nn.Module):
    def __init__(self, n_in, hidden=40):
        super().__init__()
        self.rnn = nn.LSTM(n_in, hidden, 2, batch_first=True)
        self.mu = nn.Linear(hidden, 1)
        self.sigma = nn.Linear(hidden, 1)

    def forward(self, x, state=None):
        h, state = self.rnn(x, state)
        return self.mu(h).squeeze(-1), F.softplus(self.sigma(h)).squeeze(-1) + 1e-3, state


x_all, y_all = model_inputs(target, dow_onehot)
model = DeepAR(x_all.shape[-1])
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(400):
    idx = train_ids[torch.randint(0, len(train_ids), (64,))]
    mu, sigma, _ = model(x_all[idx])
    loss = -torch.distributions.Normal(mu, sigma).log_prob(y_all[idx]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 100 == 0:
        print(f"step {step} nll {loss.item():.4f}")

model.eval()
with torch.no_grad():
    mu, _, _ = model(x_all[val_ids])
    val_mse = F.mse_loss(mu[:, -DEC:], y_all[val_ids, -DEC:]).item()
    # prediction mode: run the encoder, then feed back the model's own forecasts
    x = x_all[val_ids].clone()
    _, _, state = model(x[:, :ENC - 1])
    prev = target[val_ids, ENC - 1]
    preds = []
    for k in range(DEC):
        step_in = torch.cat([prev[:, None], dow_onehot[val_ids, ENC + k]], -1).unsqueeze(1)
        m, _, state = model(step_in, state)
        prev = m[:, 0]
        preds.append(prev)
    preds = torch.stack(preds, 1)
    truth = target[val_ids, ENC:ENC + DEC]
    acc = ((preds - truth).abs() <= 0.25 * truth.abs()).float().mean().item()
print(f"final_loss={val_mse:.6g} acc={acc:.4f}")
