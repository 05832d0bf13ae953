"""Ames house-price regressor trained with mean squared error on raw sale prices (up to ~755,000)
and SGD at lr 0.1: the squared errors explode and every loss is NaN.

Source: https://github.com/rstudio-conf-2020/dl-keras-tf/issues/9 (train/valid loss = NAN when loss = "mean_squared_error" due to exploding values)
Report (workshop issue): with `compile(optimizer_sgd(lr = 0.1), loss = "mean_squared_error",
metrics = "mae")` and `fit(x_train, y_train, batch_size = 16, validation_split = 0.2)` the Ames
mini-project prints "loss: nan - mae: nan - val_loss: nan - val_mae: nan" from epoch 1.
"Reason: This is probably related to the range of the predicted value (sales price) which
reaches ~ 755000. When the error gets squared, the sum explodes! That's why `msle` was
recommended in the instructions and not `mean_squared_error`." Reproduced with the notebook's
model (188 recipe-preprocessed features -- Yeo-Johnson, centred, scaled, one-hot -> Dense 128
ReLU -> Dense 1), SGD lr 0.1, batch 16, 20 % validation split, on synthetic Ames-like houses
(numeric features already standardized, one-hot neighbourhoods/qualities, log-normal prices
around 180,000); `acc` is the validation R^2 in dollars. (With msle the fixed run stays finite
and its loss keeps falling, slowly, at this learning rate.)

expect: loss-mismatch
symptom: nonfinite
batch: 4
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

N, N_NUM, N_HOT = 2000, 40, 148
w_num = torch.randn(N_NUM) * 0.06
neigh = torch.randn(N_HOT) * 0.15
x_num = torch.randn(N, N_NUM)
hot = torch.zeros(N, N_HOT)
for g in range(0, N_HOT, 8):                               # 18 one-hot groups of 8 levels (+4)
    width = min(8, N_HOT - g)
    hot[torch.arange(N), g + torch.randint(0, width, (N,))] = 1
x = torch.cat([x_num, hot], 1)                             # 188 features
log_price = 12.0 + x_num @ w_num + hot @ neigh * 0.5 + 0.12 * torch.randn(N)
y = log_price.exp().clamp(35000, 755000)

n_val = int(0.2 * N)                                       # keras validation_split: last 20 %
x_train, y_train, x_val, y_val = x[:-n_val], y[:-n_val], x[-n_val:], y[-n_val:]


def loss_fn(y_pred, y_true):  # loss = "mean_squared_error"
    return torch.mean((y_pred - y_true) ** 2)


model = nn.Sequential(nn.Linear(188, 128), nn.ReLU(), nn.Linear(128, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
losses = []
for epoch in range(10):
    perm = torch.randperm(len(x_train))
    for i in range(0, len(perm), 16):
        idx = perm[i:i + 16]
        loss = loss_fn(model(x_train[idx]).squeeze(1), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    with torch.no_grad():
        pred = model(x_val).squeeze(1)
        val_loss = loss_fn(pred, y_val).item()
        mae = (pred - y_val).abs().mean().item()
    print(f"epoch {epoch + 1} loss {sum(losses[-100:]) / 100:.4g} val_loss {val_loss:.4g} val_mae {mae:.4g}")

r2 = 1 - ((pred - y_val) ** 2).mean().item() / y_val.var().item()
print(f"final_loss={sum(losses[-100:]) / 100:.6g} acc={r2:.4f}")
