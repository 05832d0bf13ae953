"""Hierarchical attention network: a sentence made only of padding turns the loss into NaN.

Source: https://github.com/alexTsaptsinos/lyricsHAN/issues/3
Report: NaN loss despite clipnorm; "the issue is due to empty padding. If there is a row that is
entirely made up of zeros, the loss is driven to NaN. You mention masking but I don't see where
it is implemented." The masked attention softmax divides by the sum of the masked weights, which
is 0 for an all-padding sentence (0/0).

expect: unstable-op
symptom: nonfinite
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

VOCAB, SENTS, WORDS, EMB = 50, 6, 8, 24

# documents: up to 6 sentences of up to 8 words; token 0 is padding
def make_batch(n):
    docs = torch.randint(1, VOCAB, (n, SENTS, WORDS))
    n_words = torch.randint(2, WORDS + 1, (n, SENTS))
    n_sents = torch.randint(2, SENTS + 1, (n,))
    word_pos = torch.arange(WORDS)[None, None]
    docs = docs * (word_pos < n_words[..., None])
    docs = docs * (torch.arange(SENTS)[None, :, None] < n_sents[:, None, None])
    label = (docs == 7).any(-1).any(-1).long()  # does the lyric contain word 7?
    return docs, label


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.context = nn.Parameter(torch.randn(dim) * 0.1)

    def forward(self, h, mask):
        scores = torch.tanh(self.proj(h)) @ self.context
        weights = torch.exp(scores) * mask
        weights = weights / weights.sum(-1, keepdim=True)
        return (weights.unsqueeze(-1) * h).sum(-2)


class HAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB, padding_idx=0)
        self.word_att = Attention(EMB)
        self.sent_att = Attention(EMB)
        self.out = nn.Linear(EMB, 2)

    def forward(self, docs):
        mask = (docs != 0).float()
        sent_vecs = self.word_att(self.emb(docs), mask)
        sent_mask = (mask.sum(-1) > 0).float()
        return self.out(self.sent_att(sent_vecs, sent_mask))


model = HAN()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
losses = []
for step in range(150):
    docs, label = make_batch(32)
    loss = F.cross_entropy(model(docs), label)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    losses.append(loss.item())

docs, label = make_batch(500)
with torch.no_grad():
    acc = (model(docs).argmax(1) == label).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
