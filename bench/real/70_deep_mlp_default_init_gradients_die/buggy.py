"""Very deep plain MLP (16 Linear+Tanh layers, default init, no normalisation): the gradients die
out before they reach the first layers and training crawls.

Source: https://github.com/torch/nn/issues/449 (Default initialization of modules)
Report: "The default initialization of nn modules makes the gradients of very deep networks die
out. And it makes the training slow or even impossible." Answer (soumith): "With Batch
Normalization, even very deep networks seem to be stable and training fine, I'd suggest adding
those." PyTorch's nn.Linear keeps the Torch7 default, U(-1/sqrt(fan_in), 1/sqrt(fan_in)), whose
variance is a third of what keeps a tanh stack's signal alive, so activations and gradients shrink
layer after layer. Reproduced with a 16-hidden-layer tanh regressor on a synthetic sensor
calibration task (16 standardised inputs, smooth nonlinear target), SGD with momentum.

expect: vanishing-gradient
symptom: final-loss-ratio 3
batch: 3
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

X = torch.randn(4000, 16)
w1, w2 = torch.randn(16, 4), torch.randn(16)
y = (torch.sin(X @ w1 / 2).sum(1) + 0.1 * (X @ w2) + 0.1 * torch.randn(4000)).unsqueeze(1)
y = (y - y.mean()) / y.std()


def make_model(depth=16, width=64):
    layers, d = [], 16
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.Tanh()]
        d = width
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


model = make_model()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.MSELoss()
losses = []
for step in range(400):
    idx = torch.randint(0, 4000, (128,))
    loss = loss_fn(model(X[idx]), y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if step % 25 == 0:
        g_first = model[0].weight.grad.norm().item()
        g_last = model[-1].weight.grad.norm().item()
        print(f"step {step} loss {loss.item():.4f} grad first layer {g_first:.2e} last layer {g_last:.2e}")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
