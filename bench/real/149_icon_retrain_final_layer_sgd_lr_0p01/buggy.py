"""UI-icon classifier built by retraining only a final softmax layer on cached image "bottleneck" features (TF-Hub retrain.py recipe) with plain gradient descent at learning_rate=0.01: after all training steps the cross-entropy has barely moved from its starting value ln(22) = 3.09, where the same layer trained with Adam ends near 0.05.

Source: https://github.com/testdotai/classifier-builder/pull/6 (Use AdamOptimizer)
Report: "During the training, I have been thinking about 'Is this learning rate is too small and
does the training become too slow?' ... when I chose learning_rate=0.01, the SGD convergence was
very slow. I don't want to tweak the best learning rate according to training data." The PR
switches the final-layer optimizer to AdamOptimizer at learning_rate 0.01 ("I found this worked
well"). Reproduced with retrain.py's final-layer training in PyTorch (bottlenecks cached once per
image, a new fully connected layer initialised from a truncated normal with stddev 0.001,
random batches of 100 bottlenecks per step, 500 steps, validation every 100 steps) on 22 classes (21 icon
types plus "_negative") of synthetic 1,280-d non-negative bottleneck vectors of unit L2 norm,
as a MobileNet feature extractor with normalised pooling would produce. The printed loss is the
validation cross-entropy at the end, `acc` the validation accuracy.

expect: lr-too-low
symptom: loss-above 2.0
batch: 8
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
optimizer = torch.optim.SGD(final_layer.parameters(), lr=learning_rate)   # GradientDescentOptimizer

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
