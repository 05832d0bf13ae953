"""UI-icon classifier, final layer retrained on cached bottlenecks -- fixed as in the PR: the final
layer is trained with Adam (AdamOptimizer) at learning_rate 0.01 instead of plain gradient descent;
nothing else changed.

Source: https://github.com/testdotai/classifier-builder/pull/6 (Use AdamOptimizer)
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

N_CLASSES, DIM = 22, 1280
learning_rate = 0.01
how_many_training_steps = 500
train_batch_size = 100

prototypes = torch.relu(torch.randn(N_CLASSES, DIM)) * (torch.rand(N_CLASSES, DIM) < 0.15)


def bottlenecks(n):
    y = torch.randint(0, N_CLASSES, (n,))
    shared = torch.relu(torch.randn(n, DIM)) * (torch.rand(n, DIM) < 0.3)
    x = torch.relu(0.9 * prototypes[y] + 0.9 * shared + 0.3 * torch.randn(n, DIM))
    return F.normalize(x, dim=1), y


train_x, train_y = bottlenecks(4000)
val_x, val_y = bottlenecks(800)

final_layer = nn.Linear(DIM, N_CLASSES)
nn.init.trunc_normal_(final_layer.weight, std=0.001, a=-0.002, b=0.002)
nn.init.zeros_(final_layer.bias)
optimizer = torch.optim.Adam(final_layer.parameters(), lr=learning_rate)  # AdamOptimizer

for step in range(how_many_training_steps):
    idx = torch.randint(0, len(train_x), (train_batch_size,))
    loss = F.cross_entropy(final_layer(train_x[idx]), train_y[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 100 == 0 or step == how_many_training_steps - 1:
        with torch.no_grad():
            logits = final_layer(val_x)
            val_loss = F.cross_entropy(logits, val_y).item()
            val_acc = (logits.argmax(1) == val_y).float().mean().item()
        print(f"step {step}: train cross entropy {loss.item():.4f}  validation accuracy {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
