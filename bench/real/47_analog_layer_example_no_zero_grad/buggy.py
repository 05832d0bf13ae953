"""Single-layer example trained without opt.zero_grad(): the loss falls, then climbs back up.

Source: https://github.com/IBM/aihwkit/issues/446 (Missing zero_grad() call)
Report: "the first two examples (examples/01_simple_layer.py and examples/02_multiple_layers.py)
are missing a call to opt.zero_grad() at each iteration. When running on 10 iterations currently
the loss decrease then increase again" (1.03, 0.82, 0.47, 0.20, 0.06, 0.09, 0.28, 0.53, ...);
fix: call opt.zero_grad() every iteration. Reproduced with the example's 4->2 layer and its two
training points (a digital nn.Linear stands in for AnalogLinear; plain SGD for AnalogSGD).

expect: missing-zero-grad
symptom: final-loss-ratio 2
batch: 2
"""
import argparse

import torch
from torch import Tensor
from torch.nn import Linear
from torch.nn.functional import mse_loss
from torch.optim import SGD

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

# Prepare the datasets (input and expected output).
x = Tensor([[0.1, 0.2, 0.4, 0.3], [0.2, 0.1, 0.1, 0.3]])
y = Tensor([[1.0, 0.5], [0.7, 0.3]])

# Define a single-layer network.
model = Linear(4, 2)

# Define an optimizer and train.
opt = SGD(model.parameters(), lr=0.1)
losses = []
for epoch in range(100):
    pred = model(x)
    loss = mse_loss(pred, y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
