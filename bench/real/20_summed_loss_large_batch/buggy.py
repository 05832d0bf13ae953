"""Loss summed over the batch (np.sum-style) with plain SGD: fine at batch 128, explodes at 1024.

Source: https://github.com/jax-ml/jax/pull/3113 (Correct notebooks for neural networks in docs)
Report: "Loss was calculated using np.sum without accounting for the number of samples. This
worked for the batch size of 128 in combination with the low learning rate but lead to exploding
gradients for larger batches. np.mean is used now with a larger learning rate."

expect: loss-reduction
symptom: acc-below 0.3
"""
import argparse

import numpy as np
import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--batch-size", type=int, default=1024)
args = ap.parse_args()
torch.manual_seed(args.seed)
rng = np.random.default_rng(args.seed)

# MNIST-like: 64-d inputs in [0, 1], 10 classes
protos = rng.random((10, 64))
labels = rng.integers(0, 10, 8192)
images = np.clip(protos[labels] + 0.2 * rng.standard_normal((8192, 64)), 0, 1).astype("float32")
images, labels = torch.tensor(images), torch.tensor(labels)


def init_network_params(sizes, scale=1e-2):
    return [(scale * torch.randn(n, m), scale * torch.randn(n)) for m, n in zip(sizes[:-1], sizes[1:])]


params = init_network_params([64, 256, 256, 10])
for w, b in params:
    w.requires_grad_(True)
    b.requires_grad_(True)


def predict(params, x):
    for w, b in params[:-1]:
        x = torch.relu(x @ w.T + b)
    w, b = params[-1]
    logits = x @ w.T + b
    return logits - torch.logsumexp(logits, 1, keepdim=True)


def loss_fn(params, x, y):
    preds = predict(params, x)
    return -torch.sum(preds[torch.arange(len(y)), y])


step_size = 0.01
losses = []
for epoch in range(12):
    perm = torch.randperm(8192)
    for i in range(0, 8192, args.batch_size):
        idx = perm[i:i + args.batch_size]
        loss = loss_fn(params, images[idx], labels[idx])
        grads = torch.autograd.grad(loss, [p for wb in params for p in wb])
        with torch.no_grad():
            for p, g in zip([p for wb in params for p in wb], grads):
                p -= step_size * g
        losses.append(loss.item() / len(idx))

with torch.no_grad():
    acc = (predict(params, images).argmax(1) == labels).float().mean().item()
print(f"final_loss={np.mean(losses[-3:]):.6g} acc={acc:.4f}")
