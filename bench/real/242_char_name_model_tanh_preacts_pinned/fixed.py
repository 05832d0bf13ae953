"""Character-level name model -- fixed as the post does: the hidden weight matrices are scaled by the
tanh gain over the square root of their fan-in, (5/3) / sqrt(fan_in), so the pre-activations stay
in tanh's active range and the hidden layers receive gradient (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

V, BLOCK, EMB, HID = 27, 3, 10, 200
trans = torch.softmax(torch.randn(V, V, V) * 4.0, dim=-1)
trans[:, :, 0] += 0.08
trans = trans / trans.sum(-1, keepdim=True)


def make_names(n):
    names = []
    for _ in range(n):
        a, b, name = 0, 0, []
        while len(name) < 12:
            c = int(torch.multinomial(trans[a, b], 1))
            if c == 0 and len(name) >= 2:
                break
            if c == 0:
                continue
            name.append(c)
            a, b = b, c
        names.append(name)
    return names


def contexts(names):
    xs, ys = [], []
    for name in names:
        ctx = [0] * BLOCK
        for c in name + [0]:
            xs.append(ctx)
            ys.append(c)
            ctx = ctx[1:] + [c]
    return torch.tensor(xs), torch.tensor(ys)


Xtr, Ytr = contexts(make_names(6000))
Xte, Yte = contexts(make_names(1000))

C = torch.randn(V, EMB)
W1 = torch.randn(BLOCK * EMB, HID) * (5 / 3) / (BLOCK * EMB) ** 0.5
b1 = torch.randn(HID) * 0.01
W2 = torch.randn(HID, HID) * (5 / 3) / HID ** 0.5
b2 = torch.randn(HID) * 0.01
W3 = torch.randn(HID, V) * 0.01
b3 = torch.zeros(V)
params = [C, W1, b1, W2, b2, W3, b3]
for p in params:
    p.requires_grad_(True)


def forward(x):
    h = torch.tanh(C[x].view(len(x), -1) @ W1 + b1)
    h = torch.tanh(h @ W2 + b2)
    return h @ W3 + b3


for step in range(4000):
    idx = torch.randint(0, len(Xtr), (64,))
    loss = F.cross_entropy(forward(Xtr[idx]), Ytr[idx])
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.1 * p.grad
    if step % 1000 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    logits = forward(Xte)
    test_loss = F.cross_entropy(logits, Yte).item()
    acc = (logits.argmax(1) == Yte).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
