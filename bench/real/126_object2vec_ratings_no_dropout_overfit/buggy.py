"""Object2Vec-style rating model (user-id and item-id encoders, combined as [u, v, |u - v|, u * v], an MLP comparator, MSE on the star rating) trained for many epochs with no dropout and no weight decay: the training loss keeps falling while the validation loss climbs above its early minimum.

Source: https://github.com/aws/sagemaker-python-sdk/issues/591 (Object2Vec - validation loss increases while training loss decreases)
Report: predicting Amazon musical-instrument ratings with Object2Vec, "The validation loss
increases while training loss decreases. The best model is obtained from epoch 0." Answer: this
"is a common phenomenon known as overfitting ... Object2Vec has built-in remedies to reduce
overfitting: 1. Use dropout hyperparameter ... 2. Use weight_decay hyperparameter ..."
Reproduced with Object2Vec's pair architecture (two embedding encoders of dimension 64, the
comparator's concatenation of both vectors with their absolute difference and element-wise
product, a 2-layer MLP to one output, MSE loss, Adam, mini-batches of 64) on a sparse synthetic
ratings matrix (300 users x 150 items, 8,000 observed 1-5 star ratings from a rank-4 taste
model plus noise, 20 % held out); dropout = 0 and weight_decay = 0 as in the report's
configuration. The printed loss is the validation MSE after the last epoch, `acc` the share of
validation ratings predicted within 1 star.

expect: overfitting
symptom: final-loss-ratio 1.4
batch: 7
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

N_USERS, N_ITEMS, N_OBS = 300, 150, 8000
HPARAMS = {"enc_dim": 64, "mlp_dim": 128, "dropout": 0.0, "weight_decay": 0.0, "epochs": 30,
           "learning_rate": 3e-3, "mini_batch_size": 64}

taste_u = torch.randn(N_USERS, 4)
taste_i = torch.randn(N_ITEMS, 4)
bias_i = 0.5 * torch.randn(N_ITEMS)
users = torch.randint(0, N_USERS, (N_OBS,))
items = torch.randint(0, N_ITEMS, (N_OBS,))
score = 3.4 + 0.45 * (taste_u[users] * taste_i[items]).sum(1) + bias_i[items] + 0.6 * torch.randn(N_OBS)
ratings = score.round().clamp(1, 5)
n_val = N_OBS // 5
tr_u, tr_i, tr_r = users[n_val:], items[n_val:], ratings[n_val:]
va_u, va_i, va_r = users[:n_val], items[:n_val], ratings[:n_val]


class Object2Vec(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.enc0 = nn.Embedding(N_USERS, hp["enc_dim"])
        self.enc1 = nn.Embedding(N_ITEMS, hp["enc_dim"])
        self.drop = nn.Dropout(hp["dropout"])
        self.mlp = nn.Sequential(nn.Linear(4 * hp["enc_dim"], hp["mlp_dim"]), nn.ReLU(), self.drop,
                                 nn.Linear(hp["mlp_dim"], hp["mlp_dim"]), nn.ReLU(), self.drop,
                                 nn.Linear(hp["mlp_dim"], 1))

    def forward(self, u, i):
        a, b = self.drop(self.enc0(u)), self.drop(self.enc1(i))
        return self.mlp(torch.cat([a, b, (a - b).abs(), a * b], 1)).squeeze(1)


model = Object2Vec(HPARAMS)
optimizer = torch.optim.Adam(model.parameters(), lr=HPARAMS["learning_rate"], weight_decay=HPARAMS["weight_decay"])
bs = HPARAMS["mini_batch_size"]
for epoch in range(HPARAMS["epochs"]):
    model.train()
    perm = torch.randperm(len(tr_r))
    total = 0.0
    for k in range(0, len(perm), bs):
        idx = perm[k:k + bs]
        loss = F.mse_loss(model(tr_u[idx], tr_i[idx]), tr_r[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        pred = model(va_u, va_i)
        val_loss = F.mse_loss(pred, va_r).item()
        acc = ((pred - va_r).abs() <= 1).float().mean().item()
    if epoch % 5 == 0 or epoch == HPARAMS["epochs"] - 1:
        print(f"epoch {epoch} train_mse {total / len(perm):.4f} val_mse {val_loss:.4f}")
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
