"""Sentence-pair entailment classifier (3 labels) in the decomposable-attention style: frozen pretrained word vectors (large-norm, GloVe-like) are projected, each sentence is summarized by attention-weighted sums, and a comparison MLP produces the label logits; training uses Adam. The loss is written out by hand as `-log(softmax(logits))[label]`: the frozen vectors have norms of several units, the logits quickly reach magnitudes in the hundreds, the softmax of a mispredicted example returns an exact 0 for its true label, log(0) = -inf, and the loss and every gradient become NaN -- the training run ends with a NaN loss.

Source: https://github.com/deeplearning4j/deeplearning4j/issues/785 (Infinity Underflow in Cross-Entropy with Softmax)
Report: "even if activations are weights are bounded in -1 to 1. One can still get a very low exponent if `nin` is very
large ... this can start underflowing thus giving us log(0) term in the loss function and killing the learning." --
"Use log in combination with softmax instead of first computing the softmax term and then applying the log."
Reproduced with synthetic premise/hypothesis pairs over a 500-word vocabulary with frozen N(0, 1) vectors of
dimension 50 (3,000 training pairs, 8 epochs of batch 50); the fix computes the loss with log_softmax. The printed
loss is the held-out cross-entropy, `acc` the held-out accuracy.

expect: unstable-op
symptom: nonfinite
batch: 27
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

VOCAB, DIM, LEN = 500, 50, 8
glove = torch.randn(VOCAB, DIM)
antonym = torch.randperm(VOCAB)


def make_pairs(n):
    premise = torch.randint(0, VOCAB, (n, LEN))
    label = torch.randint(0, 3, (n,))  # 0 entail, 1 contradict, 2 neutral
    hyp = premise[:, torch.randperm(LEN)].clone()
    k = torch.randint(0, LEN, (n,))
    rows = torch.arange(n)
    contra = label == 1
    hyp[rows[contra], k[contra]] = antonym[hyp[rows[contra], k[contra]]]
    neutral = label == 2
    hyp[neutral] = torch.randint(0, VOCAB, (int(neutral.sum()), LEN))
    hyp[neutral, :3] = premise[neutral, :3]
    return premise, hyp, label


class Entailment(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding.from_pretrained(glove, freeze=True)
        self.proj = nn.Linear(DIM, 64)
        self.compare = nn.Sequential(nn.Linear(128, 64), nn.ReLU())
        self.out = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 3))

    def forward(self, p, h):
        a, b = self.proj(self.emb(p)), self.proj(self.emb(h))
        att = torch.softmax(a @ b.transpose(1, 2), dim=-1)
        a_cmp = self.compare(torch.cat([a, att @ b], -1)).sum(1)
        b_cmp = self.compare(torch.cat([b, att.transpose(1, 2) @ a], -1)).sum(1)
        return self.out(torch.cat([a_cmp, b_cmp], -1))


def nll(logits, label):
    label_probs = F.softmax(logits, dim=-1)
    return -torch.log(label_probs).gather(1, label[:, None]).mean()


p_tr, h_tr, y_tr = make_pairs(3000)
p_te, h_te, y_te = make_pairs(600)
model = Entailment()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    perm = torch.randperm(len(y_tr))
    for i in range(0, len(perm), 50):
        idx = perm[i:i + 50]
        loss = nll(model(p_tr[idx], h_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

with torch.no_grad():
    logits = model(p_te, h_te)
    test_loss = nll(logits, y_te).item()
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
