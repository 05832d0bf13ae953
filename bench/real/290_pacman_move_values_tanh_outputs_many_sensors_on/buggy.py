"""Move-value network for a low-level Ms. Pac-Man agent: 400 binary sensors (pellets, walls, ghosts
and power pills on a grid around the agent, roughly 40 % of them on in a typical frame) feed a
substrate-style single layer with tanh outputs, one per move, regressed with SGD onto the move
values computed by a scripted look-ahead (values in [-1, 1]). Weights start in NEAT's usual
[-1, 1] range, and with so many inputs on at once every output unit sums well over a hundred
contributions: the pre-activations sit far out on the tanh plateau, the local derivative is
practically zero, and the outputs stay pinned at +-1 however long the network trains.

Source: https://github.com/schrum2/MM-NEAT/issues/270 (Saturated outputs in low level features Pacman)
Report: "The output layers of low level Pacman become incredibly saturated with many important inputs
turned on. This should be fixed. ... Using ReLU or ID activation functions seems to prevent the
saturation". Reproduced with 6,000 synthetic frames whose move values depend linearly on a few
dozen sensors (squashed into [-1, 1]), 4 moves, weights uniform in [-1, 1], SGD lr 0.03 on
mini-batches of 100 sliced by hand, 30 epochs. The printed loss is the MSE on 1,500 held-out
frames, `acc` the fraction of them where the best move is ranked first.

expect: saturated-activation
symptom: loss-above 0.5
batch: 17
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_SENSORS, N_MOVES = 400, 4
relevant = torch.zeros(N_SENSORS, N_MOVES)
relevant[torch.randperm(N_SENSORS)[:48]] = 0.25 * torch.randn(48, N_MOVES)


def frames(n):
    s = (torch.rand(n, N_SENSORS) < 0.4).float()
    v = s @ relevant
    return s, torch.tanh(v - v.mean(0))


x_tr, y_tr = frames(6000)
x_te, y_te = frames(1500)

w = (2 * torch.rand(N_SENSORS, N_MOVES) - 1).requires_grad_()
b = torch.zeros(N_MOVES, requires_grad=True)


def output_activation(z):
    return torch.tanh(z)


def move_values(s):
    return output_activation(s @ w + b)


for epoch in range(30):
    perm = torch.randperm(len(x_tr))
    for i in range(0, len(perm), 100):
        idx = perm[i:i + 100]
        loss = ((move_values(x_tr[idx]) - y_tr[idx]) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in (w, b):
                p -= 0.03 * p.grad
                p.grad.zero_()
    with torch.no_grad():
        pred = move_values(x_te)
        test_mse = ((pred - y_te) ** 2).mean().item()
    print(f"epoch {epoch + 1} test mse {test_mse:.4f}")

acc = (pred.argmax(1) == y_te.argmax(1)).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
