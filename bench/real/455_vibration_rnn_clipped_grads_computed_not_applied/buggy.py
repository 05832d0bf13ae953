"""Next-step predictor for machine-vibration signals: a vanilla tanh RNN (64 units, recurrent weights initialised orthogonal with gain 1.4) reads 60 samples of a two-tone vibration trace and predicts every next sample, trained with a hand-written SGD step (lr 0.3) on gradients obtained from `torch.autograd.grad`. The step computes the globally clipped gradients (max norm 1.0) as intended, but then applies the original, unclipped gradients to the parameters. With a recurrent matrix that expands the hidden state, back-propagation through 60 steps produces gradients orders of magnitude above the clipping threshold; the first such update throws the weights into saturation, later updates blow up further and the loss becomes NaN in the first epoch.

Source: https://github.com/keithito/tacotron/pull/7 (use clipped_gradients not the original gradients)
Report: "To my understanding, it's better to use the `clipped_gradients` not the original `gradients`." -- maintainer: "Right :-)
Thanks for the fix! This might explain why the loss was occasionally spiking before." (the training op clipped the gradients by
global norm and then passed the unclipped ones to `apply_gradients`). Reproduced with synthetic two-tone vibration traces plus
noise, the manual update applying `grads` instead of `clipped`. The printed loss is the held-out next-sample MSE, `acc` the
fraction of held-out next samples predicted within 0.2.

expect: exploding-gradient
symptom: nonfinite
batch: 28
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

STEPS, LR, MAX_NORM = 60, 0.3, 1.0


def vibration_traces(n):
    t = torch.arange(STEPS + 1).float()
    freq = 0.1 + 0.3 * torch.rand(n, 1)
    phase = 6.28 * torch.rand(n, 1)
    s = torch.sin(freq * t + phase) + 0.5 * torch.sin(2.3 * freq * t + phase) + 0.05 * torch.randn(n, STEPS + 1)
    return s[:, :-1, None], s[:, 1:, None]


X_train, Y_train = vibration_traces(2000)
X_test, Y_test = vibration_traces(500)
rnn = nn.RNN(1, 64, batch_first=True)
head = nn.Linear(64, 1)
with torch.no_grad():
    nn.init.orthogonal_(rnn.weight_hh_l0, gain=1.4)
params = list(rnn.parameters()) + list(head.parameters())


def clip_by_global_norm(grads, max_norm):
    norm = torch.sqrt(sum((g ** 2).sum() for g in grads))
    scale = min(1.0, max_norm / (norm.item() + 1e-6))
    return [g * scale for g in grads], norm.item()


for epoch in range(5):
    perm = torch.randperm(len(X_train))
    total, steps = 0.0, 0
    for start in range(0, len(perm), 32):
        idx = perm[start:start + 32]
        out, _ = rnn(X_train[idx])
        loss = F.mse_loss(head(out), Y_train[idx])
        grads = torch.autograd.grad(loss, params)
        clipped, grad_norm = clip_by_global_norm(grads, MAX_NORM)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= LR * g
        total += loss.item()
        steps += 1
    with torch.no_grad():
        out, _ = rnn(X_test)
        pred = head(out)
        test_mse = F.mse_loss(pred, Y_test).item()
        acc = ((pred - Y_test).abs() < 0.2).float().mean().item()
    print(f"epoch {epoch} train {total / steps:.4f} test {test_mse:.4f} within0.2 {acc:.3f} last_grad_norm {grad_norm:.3g}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
