"""Next-purchase-category predictor for a shop (a recommender-side classifier: 20 behavioural features per shopper -- recency, frequency, spend per department, session counts -- to one of 8 product categories), a ReLU MLP with categorical cross-entropy trained by SGD with Nesterov momentum and a small decay, the Keras-tutorial style setup. The learning rate is 1e-5: each update is so small that an epoch moves the loss by a few thousandths, and after the whole run the model is still next to its random starting point -- its loss even above that of simply predicting the category frequencies.

Source: https://chenzhang.org/notes/developer/loss-and-accuracy-get-stuck-in-keras/ (Loss and Accuracy Get Stuck in Keras)
Report: "When training a prediction model using Keras, the loss and accuracy sometimes get stuck.
For example: Epoch 1/10 ... loss: 1.9112 - acc: 0.5325, Epoch 2/10 ... loss: 1.9105 - acc: 0.5378,
Epoch 3/10 ... loss: 1.9105 - acc: 0.5378 ... Adjusting Learning Rate: Tune the network by adjusting
learning rate of the optimizer. For example, increase learning from 0.00001 to 0.1: sgd =
optimizers.SGD(lr=0.1, decay=1e-6, momentum=0.9, nesterov=True)". Reproduced with 30,000 synthetic
shoppers (8 categories, the commonest about 29% of purchases, category driven non-linearly by the
spend profile), an MLP 20-64-64-8, SGD lr 1e-5 with momentum 0.9, Nesterov and a 1e-6 per-step
decay, batches of 128, 4 epochs. The printed loss is the cross-entropy on 6,000 held-out shoppers,
`acc` the accuracy there.

expect: lr-too-low
symptom: loss-above 1.5
batch: 18
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LR = 1e-5
CATS = 8
prior = torch.tensor([1.6, 0.6, 0.4, 0.2, 0.0, -0.2, -0.4, -0.6])
profile = torch.randn(20, CATS) * 0.9


def shoppers(n):
    x = torch.randn(n, 20)
    logits = prior + torch.tanh(x @ profile) * 2.2 + 0.6 * (x[:, :8] * x[:, 8:16])
    return x, torch.distributions.Categorical(logits=logits).sample()


Xtr, ytr = shoppers(30000)
Xte, yte = shoppers(6000)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, CATS))
opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, nesterov=True)
decay = torch.optim.lr_scheduler.LambdaLR(opt, lambda it: 1.0 / (1.0 + 1e-6 * it))
loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=128, shuffle=True)

for epoch in range(4):
    model.train()
    total, correct = 0.0, 0
    for xb, yb in loader:
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        decay.step()
        total += loss.item() * len(xb)
        correct += (out.argmax(1) == yb).sum().item()
    model.eval()
    with torch.no_grad():
        logits = model(Xte)
        val = F.cross_entropy(logits, yte).item()
        acc = (logits.argmax(1) == yte).float().mean().item()
    print(f"Epoch {epoch + 1}/4 - loss: {total / len(Xtr):.4f} - acc: {correct / len(Xtr):.4f} - val_loss: {val:.4f} - val_acc: {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
