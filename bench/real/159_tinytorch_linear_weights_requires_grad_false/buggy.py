"""Building energy-load regressor (MLP made of a hand-written Linear layer, MSE, SGD with momentum, a small Trainer class) whose Linear layer creates its weight matrices with requires_grad=False: backward only reaches the biases, the optimizer silently skips every weight, and the network can only re-gate its random initial features: the loss plateaus several times above that of the trained network.

Source: https://github.com/harvard-edge/cs249r_book/issues/1334 ([TinyTorch] Potential issue in 08_training test_unit_trainer_optimizer_update not updating parameters)
Report: the training module's test fails with "Parameters should change after optimizer update";
"The root cause is that param.grad is None ... because the Tensors in SimpleModel's Linear layers
were not defined with requires_grad = True"; the fix (merged in PR #1335): "iterate
model.parameters() in trainer_init and set requires_grad = True, making the Trainer the
authoritative owner of gradient tracking". Reproduced in PyTorch with the same structure: a
course-style `Linear` module holding `weight` (He-scaled, requires_grad=False, as in the
module) and `bias` parameters, a `SimpleModel` of three of them with ReLU, and a `Trainer` whose
__init__ stores the model, optimizer and loss; on 4,000 synthetic buildings (8 standardized
design features such as relative compactness, surface, wall/roof area, height, orientation,
glazing area and distribution; the heating load a smooth nonlinear function of them plus noise,
standardized). The printed loss is the training MSE of the last epoch (1.0 = predicting the
mean), `acc` the R^2 on 1,000 held-out buildings.

expect: params-not-updated
symptom: final-loss-ratio 3
batch: 9
"""
import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N = 5000
X = torch.randn(N, 8)
y = (1.5 * X[:, 0] - 1.0 * X[:, 1] + 0.8 * X[:, 4] * X[:, 0] + 1.2 * torch.tanh(2 * X[:, 6])
     + 0.6 * X[:, 6] * X[:, 7] + 0.5 * X[:, 3] ** 2 + 0.3 * torch.randn(N))
y = ((y - y.mean()) / y.std()).unsqueeze(1)
X_train, y_train, X_test, y_test = X[:4000], y[:4000], X[4000:], y[4000:]


class Linear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        scale = math.sqrt(2.0 / in_features)
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * scale, requires_grad=False)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x):
        return x @ self.weight + self.bias


class SimpleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Linear(8, 64), Linear(64, 64), Linear(64, 1)])

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.relu(layer(x))
        return self.layers[-1](x)


class Trainer:
    def __init__(self, model, optimizer, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.history = {"train_loss": [], "eval_loss": []}

    def train_epoch(self, loader):
        total, count = 0.0, 0
        for xb, yb in loader:
            loss = self.loss_fn(self.model(xb), yb)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item() * len(xb)
            count += len(xb)
        self.history["train_loss"].append(total / count)
        return total / count


model = SimpleModel()
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9), nn.MSELoss())
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
for epoch in range(15):
    train_loss = trainer.train_epoch(loader)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {train_loss:.4f}")

with torch.no_grad():
    pred = model(X_test)
    acc = 1 - ((pred - y_test) ** 2).mean().item() / y_test.var().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")
