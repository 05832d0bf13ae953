"""Ms. Pac-Man move-value network -- fixed as the report found: the output units use the identity
("ID") activation instead of tanh, so the large summed inputs of a busy frame no longer pin the
outputs on the tanh plateau and the error signal reaches the weights (nothing else changed).
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
    return z


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
