"""Few-shot topic classifier trained the SetFit way: a small sentence encoder (mean-pooled token embeddings -> linear -> L2-normalized 64-dim embedding) is first fine-tuned contrastively on sentence pairs (cosine similarity pushed to 1 for same-topic pairs, 0 otherwise), then a differentiable linear head on top of the embeddings is trained with cross-entropy, body lr 1e-5 and head lr 1e-2, through a small Trainer class with `freeze()` / `unfreeze()` helpers. The script calls `trainer.freeze()` before the contrastive phase (which freezes the head) and never calls `trainer.unfreeze()` before the head phase, so the classification head keeps `requires_grad=False`: the optimizer holds it but it never receives a gradient, the head stays at its random initialization, and only the body creeps at 1e-5 -- the topic predictions come out of an untrained head.

Source: https://github.com/huggingface/setfit/issues/271 (if model head is nn.module, final classification layer is not trained.)
Report: "I found If we use nn.Module, the final classification layer is not trained." -- maintainer: "The
current implementation of the SetFitTrainer only trains the SetFitHead classification layer after
`trainer.unfreeze()` has been called. In short, the correct way of training the differentiable head right
now is: trainer.freeze() # Freeze the head; trainer.train() # Train only the body; trainer.unfreeze(...)".
Reproduced with synthetic 4-topic sentences (16 tokens: topic keywords mixed into common words), 64
labelled training sentences. The printed loss is the cross-entropy on 800 held-out sentences, `acc` their
accuracy.

expect: params-not-updated
symptom: final-loss-ratio 1.8
batch: 25
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

VOCAB, TOPICS, LEN, DIM = 300, 4, 16, 64
keywords = torch.randperm(VOCAB - 100)[: TOPICS * 25].reshape(TOPICS, 25) + 100


def sentences(n):
    y = torch.randint(0, TOPICS, (n,))
    toks = torch.randint(0, 100, (n, LEN))
    n_kw = 4
    pos = torch.rand(n, LEN).argsort(1)[:, :n_kw]
    kw = keywords[y][torch.arange(n)[:, None], torch.randint(0, 25, (n, n_kw))]
    toks[torch.arange(n)[:, None], pos] = kw
    return toks, y


class SentenceEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, DIM, mode="mean")
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, toks):
        return F.normalize(self.proj(self.emb(toks)), dim=-1)


class SetFitModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = SentenceEncoder()
        self.head = nn.Linear(DIM, TOPICS)

    def forward(self, toks):
        return self.head(self.body(toks) * 4)


class SetFitTrainer:
    def __init__(self, model, x, y):
        self.model, self.x, self.y = model, x, y

    def freeze(self):
        for p in self.model.head.parameters():
            p.requires_grad_(False)

    def unfreeze(self, keep_body_frozen=False):
        for p in self.model.head.parameters():
            p.requires_grad_(True)
        for p in self.model.body.parameters():
            p.requires_grad_(not keep_body_frozen)

    def train_body(self, steps=300, lr=2e-2):
        opt = torch.optim.Adam(self.model.body.parameters(), lr=lr)
        for _ in range(steps):
            i, j = torch.randint(0, len(self.y), (2, 32))
            target = (self.y[i] == self.y[j]).float()
            cos = (self.model.body(self.x[i]) * self.model.body(self.x[j])).sum(-1)
            loss = F.mse_loss(cos, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return loss.item()

    def train_head(self, epochs=100, body_learning_rate=1e-5, learning_rate=1e-2):
        opt = torch.optim.Adam([
            {"params": self.model.body.parameters(), "lr": body_learning_rate},
            {"params": self.model.head.parameters(), "lr": learning_rate},
        ])
        for _ in range(epochs):
            loss = F.cross_entropy(self.model(self.x), self.y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return loss.item()


x_tr, y_tr = sentences(64)
x_te, y_te = sentences(800)
model = SetFitModel()
trainer = SetFitTrainer(model, x_tr, y_tr)
trainer.freeze()
print(f"body contrastive loss {trainer.train_body():.4f}")
print(f"head loss {trainer.train_head():.4f}")

with torch.no_grad():
    logits = model(x_te)
    test_loss = F.cross_entropy(logits, y_te).item()
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
