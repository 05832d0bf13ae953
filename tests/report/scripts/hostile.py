"""A small regression whose names and messages carry markup, for the report's escaping.

Module (so parameter and activation) names hold a <script> and an <img onerror>, the loss
goes NaN from --nan-at (a poisoned sample), and --raise makes the script end with an
exception whose message is HTML. Payloads only set document.title or a data-pwned
attribute, which the browser test looks for.
Arguments: --steps N --nan-at K --raise --tag TEXT (ignored: it lands in the command line).
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

# Module names may hold anything but "." (nn.Module.add_module refuses it).
SCRIPT_NAME = '<script>document["title"]="PWNED"</script>'
IMG_NAME = "<img src=x onerror='document[\"body\"][\"dataset\"][\"pwned\"]=1'>"

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=80)
p.add_argument("--nan-at", type=int, default=-1)
p.add_argument("--raise", dest="raise_", action="store_true")
p.add_argument("--tag", default="")
a = p.parse_args()

torch.manual_seed(0)
X = torch.randn(640, 8)
Y = X @ torch.randn(8, 1)
ds = TensorDataset(X, Y)
loader = DataLoader(ds, batch_size=8, shuffle=False)
model = nn.Sequential()
model.add_module(SCRIPT_NAME, nn.Linear(8, 16))
model.add_module(IMG_NAME, nn.Tanh())
model.add_module("out</b>&amp;", nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
step = 0
for x, y in loader:
    if step == a.nan_at:
        x = x.clone()
        x[0, 0] = float("nan")
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    step += 1
    if step >= a.steps:
        break
if a.raise_:
    raise RuntimeError('bad batch <img src=x onerror="document.body.dataset.pwned=2"></pre>'
                       '<script>document.title="PWNED"</script>')
print("done", step)
