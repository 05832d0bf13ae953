"""Character-level name model in the makemore style (3-character context, a 27 x 10 embedding
table, two tanh hidden layers of 200 units, softmax over the next character, minibatch SGD) whose
hidden weight matrices are drawn from a plain standard normal. Each hidden unit sums 30 (then 200)
products of order one, so its pre-activation has a standard deviation of 5 to 14: nearly every
tanh is pinned at -1 or +1 for every input, its local gradient 1 - tanh^2 is essentially zero, the
hidden layers barely learn, and the output layer is left to read fixed, almost random sign
patterns -- the model stays far above the loss the same architecture reaches when the
pre-activations sit in tanh's active range.

Source: https://breno.bearblog.dev/the-weights-in-a-study-on-fixing-the-saturated-function (The weights in a study on fixing the saturated function)
Report: "The problem we are addressing here is tanh saturation. When the pre-activation values --
the inputs to tanh -- are too large in magnitude, the output gets pinned at 1 or +1. In those flat
regions, the gradient is essentially zero, and the neuron stops learning. ... W1 =
torch.randn((n_embd * block_size, n_hidden), generator=g) ... the output will have standard
deviation 30^0.5 ... tanh(15)=0.9999999..., which is as saturated as it gets." Reproduced with
6,000 synthetic names from a second-order character Markov chain (about 40,000 training
contexts), the network above (hidden weights randn, biases randn * 0.01), SGD lr 0.1, batch 64,
4,000 steps. The printed loss is the next-character cross-entropy on 1,000 held-out names, `acc`
the next-character accuracy on them.

expect: saturated-activation
symptom: final-loss-ratio 1.03
batch: 14
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
W1 = torch.randn(BLOCK * EMB, HID)
b1 = torch.randn(HID) * 0.01
W2 = torch.randn(HID, HID)
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
