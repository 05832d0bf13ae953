# Source: https://github.com/dvgodoy/PyTorchStepByStep/pull/28
# Pitfall: the "initial" weights meant to restart each optimizer comparison are kept as
#   model.state_dict() itself, a live reference; after the first run they hold the trained weights.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(13)
x = torch.rand(200, 1)
y = 2.0 + 1.5 * x + 0.1 * torch.randn(200, 1)
train_loader = DataLoader(TensorDataset(x[:160], y[:160]), batch_size=16, shuffle=True)
val_loader = DataLoader(TensorDataset(x[160:], y[160:]), batch_size=16)

model = nn.Sequential()
model.add_module("linear", nn.Linear(1, 1))
loss_fn = nn.MSELoss(reduction="mean")
initial_state = model.state_dict()  # expect: state-dict-not-copied


def fit(model, optimizer, epochs=20):
    history = []
    for _ in range(epochs):
        model.train()
        for xb, yb in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val = sum(loss_fn(model(xb), yb).item() for xb, yb in val_loader) / len(val_loader)
        history.append(val)
    return history


results = {}
for name, make_opt in [("SGD", lambda p: optim.SGD(p, lr=0.1)),
                       ("Adam", lambda p: optim.Adam(p, lr=0.1))]:
    model.load_state_dict(initial_state)
    results[name] = fit(model, make_opt(model.parameters()))

for name, hist in results.items():
    print(name, [round(v, 4) for v in hist[:5]], "...", round(hist[-1], 4))
