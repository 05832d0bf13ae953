"""Natural-language-inference head on a frozen sentence encoder, in the sentence-transformers "SoftmaxLoss" style: a pretrained bag-of-words encoder (token embeddings averaged, then a linear layer and tanh, 32-d) stays frozen, and the loss module owns a linear classifier over [u, v, |u - v|] that predicts entailment / neutral / contradiction for a sentence pair; AdamW lr 5e-3, DataLoader batches of 64, 5 epochs. The optimiser is built from `model.parameters()` -- the encoder's, all frozen -- while the classifier lives inside the loss object and is never handed to it. The classifier gets gradients on every step but no update, so its random initial weights decide every prediction and the loss stays flat at the level of a random three-way guess.

Source: https://github.com/huggingface/sentence-transformers/issues/2872 (is SoftmaxLoss trainable? how it works?)
Report: "the classifier is initialized out of Module, so, when create optimizer, the classifier's weight is
not given to AdamOptimizer ... I think the classifier's weight only have gradients but not update when
training ... when I debug in the softmaxloss, I found that after some steps, the classifier's weights do
not changed at all". Reproduced with 6,000 synthetic sentence pairs of 8 tokens over a 400-word vocabulary
(same topic = entailment, a different topic = neutral, the topic's opposite vocabulary = contradiction) and
the frozen encoder above. The printed loss is the mean training loss of the last epoch, `acc` the accuracy
on 1,500 held-out pairs.

expect: params-not-updated
symptom: acc-below 0.5
batch: 23
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

TOPICS, WORDS, D = 20, 10, 32
topic_vec = torch.randn(TOPICS, D)
word_vec = torch.cat([topic_vec.repeat_interleave(WORDS, 0), -topic_vec.repeat_interleave(WORDS, 0)])
word_vec = word_vec + 0.4 * torch.randn_like(word_vec)


def sentences(topics, negated):
    base = topics * WORDS + negated * TOPICS * WORDS
    return base.unsqueeze(1) + torch.randint(0, WORDS, (len(topics), 8))


def pairs(n):
    label = torch.randint(0, 3, (n,))
    t1 = torch.randint(0, TOPICS, (n,))
    other = (t1 + torch.randint(1, TOPICS, (n,))) % TOPICS
    t2 = torch.where(label == 1, other, t1)
    a = sentences(t1, torch.zeros(n, dtype=torch.long))
    b = sentences(t2, (label == 2).long())
    return a, b, label


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(word_vec, freeze=True)
        self.proj = nn.Linear(D, D)

    def forward(self, tok):
        return torch.tanh(self.proj(self.embed(tok).mean(1)))


class SoftmaxLoss(nn.Module):
    def __init__(self, model, dim, num_labels):
        super().__init__()
        self.model = model
        self.classifier = nn.Linear(3 * dim, num_labels)

    def logits(self, a, b):
        u, v = self.model(a), self.model(b)
        return self.classifier(torch.cat([u, v, (u - v).abs()], 1))

    def forward(self, a, b, label):
        return F.cross_entropy(self.logits(a, b), label)


model = Encoder()
for p in model.parameters():
    p.requires_grad_(False)
train_loss = SoftmaxLoss(model, D, 3)

A, B, Y = pairs(6000)
A_test, B_test, Y_test = pairs(1500)
loader = DataLoader(TensorDataset(A, B, Y), batch_size=64, shuffle=True)
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)

for epoch in range(5):
    total = 0.0
    for a, b, y in loader:
        loss = train_loss(a, b, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
    print(f"epoch {epoch}: train loss {total / len(Y):.4f}")

with torch.no_grad():
    acc = (train_loss.logits(A_test, B_test).argmax(1) == Y_test).float().mean().item()
print(f"final_loss={total / len(Y):.6g} acc={acc:.4f}")
