"""Wide & Deep housing regressor -- fixed: the wide path concatenates the normalized inputs
(concat_layer([normalized, hidden2]) instead of [input_, hidden2]), the pull request's change.

Source: https://github.com/ageron/handson-ml3/pull/20 (Fixing wide-and-deep to use normalized inputs)
Report: "I noticed the wide and deep example is using non-normalized inputs which leads to
performance degradation." Maintainer: "Oh great catch, thanks a lot!" In the chapter-10 notebook
the deep path goes through a Normalization layer but the Concatenate layer joined `input_` (the
raw California-housing features: population in the thousands, latitude/longitude near 35 and
-120, ...) with the last hidden layer, so the output layer sees unscaled features. Reproduced in
plain torch with the same model (Normalization adapted on the training set -> Dense 30 relu ->
Dense 30 relu, concat with the input -> Dense 1), MSE, Adam 1e-3 and batch 32, on synthetic
California-like districts (8 features with the real dataset's scales, median value in $100k);
the final loss is the validation MSE averaged over the last 5 epochs, `acc` the final
validation R^2.

expect: data-unnormalized
symptom: final-loss-ratio 1.3
batch: 4
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_districts(n):
    med_inc = (torch.randn(n) * 0.45 + 1.25).exp()                 # ~3.9, in $10k
    house_age = torch.randint(1, 53, (n,)).float()
    ave_rooms = 5.4 + 1.2 * torch.randn(n).abs() + 0.3 * med_inc
    ave_bedrms = 1.0 + 0.1 * torch.rand(n) + 0.02 * ave_rooms
    population = (torch.randn(n) * 0.75 + 7.0).exp()               # ~1400, up to ~30000
    ave_occup = 2.0 + 2.0 * torch.rand(n)
    odd = torch.rand(n) < 0.003                                      # dorms, prisons, resorts:
    ave_occup[odd] = (torch.rand(int(odd.sum())) * 6 + 2).exp()      # occupancy 10 .. 1200
    ave_rooms[odd] = (torch.rand(int(odd.sum())) * 4 + 1).exp()      # rooms up to ~150
    lat = 32.5 + 9.0 * torch.rand(n)
    lon = -124.3 + 0.9 * (42.0 - lat) + 3.0 * torch.rand(n)
    coast = torch.exp(-((lon + 122.3 - 0.6 * (37.8 - lat)) ** 2))  # price premium near the coast
    y = (0.45 * med_inc + 1.2 * coast + 0.008 * house_age - 0.08 * ave_occup.clamp(max=6)
         - 0.04 * torch.log(population) + 0.2 * torch.sin(lat) + 0.15 * torch.randn(n))
    x = torch.stack([med_inc, house_age, ave_rooms, ave_bedrms, population, ave_occup, lat, lon], 1)
    return x, y.clamp(0.15, 5.0).unsqueeze(1)


class Normalization(nn.Module):
    def adapt(self, x):
        self.register_buffer("mean", x.mean(0))
        self.register_buffer("std", x.std(0))

    def forward(self, x):
        return (x - self.mean) / self.std


class WideAndDeep(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.normalization_layer = Normalization()
        self.hidden_layer1 = nn.Linear(n_in, 30)
        self.hidden_layer2 = nn.Linear(30, 30)
        self.output_layer = nn.Linear(30 + n_in, 1)

    def forward(self, input_):
        normalized = self.normalization_layer(input_)
        hidden1 = torch.relu(self.hidden_layer1(normalized))
        hidden2 = torch.relu(self.hidden_layer2(hidden1))
        concat = torch.cat([normalized, hidden2], 1)
        return self.output_layer(concat)


X_train, y_train = make_districts(6000)
X_valid, y_valid = make_districts(1500)
model = WideAndDeep(8)
model.normalization_layer.adapt(X_train)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
history = []
for epoch in range(20):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        val_mse = loss_fn(model(X_valid), y_valid).item()
    history.append(val_mse)
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1} val_mse {val_mse:.4f}")

with torch.no_grad():
    r2 = 1 - val_mse / y_valid.var().item()
print(f"final_loss={sum(history[-5:]) / 5:.6g} acc={r2:.4f}")
