"""Session classifier for server logs: a 3-layer LSTM (32 units per layer) reads 30-step sequences of 8-d log-event embeddings and predicts from its last hidden state which of 4 session types the sequence belongs to; the type is only visible in the first event, the remaining 29 events are noise, so the network has to carry information across the whole sequence. The LSTM's biases are reset to zero before training (only the weights keep their random initialisation), which puts every forget gate at sigmoid(0) = 0.5 at the start: the memory cell keeps half of its content per step, the error signal from the last step back to the first event shrinks by about 0.5 per step and per layer, and the stacked LSTM never picks up the cue -- its loss stays at chance (log 4) for the whole run.

Source: https://github.com/karpathy/char-rnn/issues/60 (LSTM forget gate bias)
Report: "In my humble experience there are noticeable improvements in many cases. In fact, I couldn't even get a single LSTM
network with more than 2 layers to learn something if the forget gates weren't initialized with 1." Reproduced with synthetic
sessions whose type is encoded only in the first event, a 3-layer LSTM trained with Adam (lr 2e-3 with cosine decay, gradient norm clipped at 1);
the fix initialises the forget-gate slice of the input-to-hidden bias to 1 (the hidden-to-hidden bias stays 0). The printed
loss is the held-out cross-entropy, `acc` the held-out accuracy.

expect: vanishing-gradient
symptom: final-loss-ratio 2.5
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

STEPS, EMB, HIDDEN, LAYERS, TYPES, FORGET_BIAS = 30, 8, 32, 3, 4, 0.0


def sessions(n):
    y = torch.randint(0, TYPES, (n,))
    x = 0.5 * torch.randn(n, STEPS, EMB)
    x[:, 0, :TYPES] += 3.0 * F.one_hot(y, TYPES).float()
    return x, y


lstm = nn.LSTM(EMB, HIDDEN, LAYERS, batch_first=True)
head = nn.Linear(HIDDEN, TYPES)
with torch.no_grad():
    for name, p in lstm.named_parameters():
        if name.startswith("bias"):
            p.zero_()
        if name.startswith("bias_ih"):
            p[HIDDEN:2 * HIDDEN].fill_(FORGET_BIAS)
params = list(lstm.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=2e-3)

X_train, y_train = sessions(3000)
X_test, y_test = sessions(1000)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, 5 * len(loader))

for epoch in range(5):
    total = 0.0
    for xb, yb in loader:
        out, _ = lstm(xb)
        loss = F.cross_entropy(head(out[:, -1]), yb)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        total += loss.item() * len(xb)
    with torch.no_grad():
        out, _ = lstm(X_test)
        logits = head(out[:, -1])
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {total / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
