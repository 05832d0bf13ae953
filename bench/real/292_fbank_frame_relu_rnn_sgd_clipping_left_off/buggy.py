"""Frame-level phone classifier in the pytorch-kaldi style: 20-dim filter-bank frames of 120-frame
utterances go through a two-layer ReLU recurrent network (nn.RNN with relu, 96 units, recurrent
weights started at the identity as in IRNN recipes) and a linear layer over 10 phone classes,
trained with plain SGD on the frame cross-entropy, without the gradient clipping the training script
offers. The ReLU recurrence is unbounded: as soon as the recurrent weights grow a little past the
identity, back-propagation through 120 steps multiplies the error signal by them again and again,
one batch produces a gradient orders of magnitude larger than the rest, the SGD step throws the
weights far away, and the loss turns NaN.

Source: https://github.com/mravanelli/pytorch-kaldi/issues/112 (Got loss nan at last iteration)
Report: "ep=22 tr=['train_clean_100'] loss=0.671 err=0.214 ... ep=23 tr=['train_clean_100'] loss=nan
err=0.218 valid=dev_clean loss=nan err=0.911" and the maintainer: "you can probably try to activate
gradient clipping (by uncommenting lines 216-218 of core.py). Does it help?" Reproduced with 600
synthetic utterances (phone segments of 4 to 12 frames, each phone a filter-bank template plus
noise and a slow channel drift), batches of 16 utterances sliced by hand, SGD lr 0.02 momentum 0.9,
10 epochs. The printed loss is the mean frame cross-entropy of the last epoch, `acc` the frame
accuracy on 150 held-out utterances.

expect: exploding-gradient
symptom: nonfinite
batch: 17
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

N_PHONES, FBANK, FRAMES = 10, 20, 120
templates = torch.randn(N_PHONES, FBANK)


def utterances(n):
    x = torch.empty(n, FRAMES, FBANK)
    y = torch.empty(n, FRAMES, dtype=torch.long)
    for i in range(n):
        t = 0
        while t < FRAMES:
            d = int(torch.randint(4, 13, ()))
            y[i, t:t + d] = torch.randint(0, N_PHONES, ())
            t += d
        drift = torch.cumsum(0.05 * torch.randn(FRAMES, 1), 0)
        x[i] = templates[y[i]] + 0.8 * torch.randn(FRAMES, FBANK) + drift
    return x, y


x_tr, y_tr = utterances(600)
x_te, y_te = utterances(150)


class PhoneRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(FBANK, 96, num_layers=2, nonlinearity="relu", batch_first=True)
        self.out = nn.Linear(96, N_PHONES)
        for name, p in self.rnn.named_parameters():
            if name.startswith("weight_hh"):
                nn.init.eye_(p)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h)


model = PhoneRNN()
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
for epoch in range(10):
    perm = torch.randperm(len(x_tr))
    total, n = 0.0, 0
    for i in range(0, len(perm), 16):
        idx = perm[i:i + 16]
        logits = model(x_tr[idx])
        loss = F.cross_entropy(logits.reshape(-1, N_PHONES), y_tr[idx].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        n += 1
    print(f"ep={epoch} loss={total / n:.3f}")

with torch.no_grad():
    acc = (model(x_te).argmax(-1) == y_te).float().mean().item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
