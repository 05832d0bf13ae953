"""makemore deep tanh MLP -- fixed as in the lecture: every Linear layer is initialised with the tanh
gain over the square root of its fan-in, randn * (5/3) / sqrt(fan_in) (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

chars = "abcdefghijklmnopqrstuvwxyz"
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
vocab_size = 27
block_size = 3

# a synthetic "names" corpus from a peaked random trigram model
g = torch.Generator().manual_seed(2147483647)
trigram = torch.softmax(2.5 * torch.randn(vocab_size, vocab_size, vocab_size, generator=g), dim=-1)
trigram[:, :, 0] += 0.02  # names end eventually
trigram /= trigram.sum(-1, keepdim=True)
words = []
while len(words) < 8000:
    a, b, w = 0, 0, []
    while True:
        c = int(torch.multinomial(trigram[a, b], 1))
        if c == 0 or len(w) >= 12:
            break
        w.append(chars[c - 1])
        a, b = b, c
    if len(w) >= 2:
        words.append("".join(w))


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


n1 = int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:])

n_embd, n_hidden = 10, 100


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out)) * (5 / 3) / fan_in ** 0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


C = torch.randn((vocab_size, n_embd))
layers = [
    Linear(n_embd * block_size, n_hidden), Tanh(),
    Linear(n_hidden, n_hidden), Tanh(),
    Linear(n_hidden, n_hidden), Tanh(),
    Linear(n_hidden, n_hidden), Tanh(),
    Linear(n_hidden, vocab_size),
]
with torch.no_grad():
    layers[-1].weight *= 0.1  # last layer: make less confident
parameters = [C] + [p for layer in layers for p in layer.parameters()]
for p in parameters:
    p.requires_grad = True


def forward(Xb):
    emb = C[Xb]
    x = emb.view(emb.shape[0], -1)
    for layer in layers:
        x = layer(x)
    return x


max_steps, batch_size = 4000, 32
for i in range(max_steps):
    ix = torch.randint(0, Xtr.shape[0], (batch_size,))
    Xb, Yb = Xtr[ix], Ytr[ix]
    logits = forward(Xb)
    loss = F.cross_entropy(logits, Yb)
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < int(0.75 * max_steps) else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 1000 == 0:
        sat = sum((l.out.abs() > 0.97).float().mean().item() for l in layers if isinstance(l, Tanh)) / 4
        print(f"{i:7d}/{max_steps:7d}: {loss.item():.4f}  saturated={sat:.2f}")

with torch.no_grad():
    logits = forward(Xdev)
    val_loss = F.cross_entropy(logits, Ydev).item()
    acc = (logits.argmax(1) == Ydev).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
