"""Character-level MLP language model in the makemore style (3-character context, 10-d embeddings, four tanh hidden layers of 100 units built from the lecture's hand-written Linear / Tanh classes, softmax over 27 characters, minibatch SGD) whose Linear weights are drawn as plain randn, without the gain / sqrt(fan_in) scaling: the tanh pre-activations have a spread of about 5-10, most hidden units sit at +-1, the gradient through the stack is destroyed and within the training budget the model stays well above the loss the same network reaches when its layers are scaled.

Source: https://github.com/karpathy/nn-zero-to-hero/blob/master/lectures/makemore/makemore_part3_bn.ipynb (Building makemore Part 3: Activations & Gradients, BatchNorm)
The lecture's notebook shows that with `W1 = torch.randn((n_embd * block_size, n_hidden))` the
hidden activations are saturated (`h.abs() > 0.99` for most entries, some neurons white for every
example) so the gradient is destroyed in the tanh backward pass, and fixes it by scaling the
weights with the tanh gain over the square root of the fan-in, `(5/3) / fan_in ** 0.5`; its
"PyTorch-ified" deeper network of `Linear` / `Tanh` layers uses the same scaling and shows the
tanh layers saturating when the gain is too large. Reproduced with the notebook's code (the
`Linear` / `Tanh` classes, `C[Xb]` embedding lookup, last layer shrunk by 0.1, `F.cross_entropy`,
`p.data += -lr * p.grad` with lr 0.1 for the first 75% of the steps then 0.01, batches of 32)
with the Linear weights left at randn, on a synthetic name corpus of 8,000 words drawn from a
random character trigram model, for 4,000 steps. The printed loss is the validation loss at the
end, `acc` the validation next-character accuracy.

expect: saturated-activation
symptom: final-loss-ratio 1.1
batch: 10
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
        self.weight = torch.randn((fan_in, fan_out))
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
