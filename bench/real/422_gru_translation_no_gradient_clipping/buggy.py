"""Tutorial-style GRU encoder-decoder for toy machine translation: source sentences of 6-14 tokens are encoded by a GRU, the final state initializes a GRU decoder that emits the target sentence (source words mapped through a fixed bilingual dictionary, in reversed order) with teacher forcing, token cross-entropy summed over the target and averaged over the batch, plain SGD lr 2.0 on batches of 32. The training config leaves the gradient-norm clipping threshold at its "off" value, so nothing bounds the update: recurrent networks hit steep cliffs in the loss surface where the gradient norm jumps by orders of magnitude, one such step throws the recurrent weights into saturation or overflow, and the run ends with a NaN / exploded loss.

Source: https://github.com/nyu-dl/dl4mt-tutorial/issues/64 (NaN detected)
Report: "After some iterations the following error is occurred: ... Epoch 0 Update 88100 Cost 0.587470054626
UD 1.63904905319 NaN detected" -- "For my use case it seems like applying gradient clipping (setting
`clip-c` to 1.0) solved the problem of `NaN`s." Reproduced with synthetic sentence pairs over a 40-word
vocabulary, 400 updates. The printed loss is the per-token cross-entropy on 400 held-out pairs, `acc` the
held-out token accuracy.

expect: exploding-gradient
symptom: loss-above 3
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

VOCAB, PAD, BOS, DIM = 40, 0, 1, 64
CLIP_C = 0.0
dictionary = torch.cat([torch.tensor([PAD, BOS]), torch.randperm(VOCAB - 2) + 2])


def pairs(n):
    lens = torch.randint(6, 15, (n,))
    src = torch.full((n, 14), PAD)
    tgt = torch.full((n, 15), PAD)
    for i in range(n):
        s = torch.randint(2, VOCAB, (int(lens[i]),))
        src[i, : lens[i]] = s
        tgt[i, 0] = BOS
        tgt[i, 1 : lens[i] + 1] = dictionary[s.flip(0)]
    return src, tgt


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb_src = nn.Embedding(VOCAB, DIM, padding_idx=PAD)
        self.emb_tgt = nn.Embedding(VOCAB, DIM, padding_idx=PAD)
        self.enc = nn.GRU(DIM, DIM, batch_first=True)
        self.dec = nn.GRU(DIM, DIM, batch_first=True)
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, src, tgt_in):
        _, h = self.enc(self.emb_src(src))
        y, _ = self.dec(self.emb_tgt(tgt_in), h)
        return self.out(y)


def seq_loss(logits, tgt_out):
    tok = F.cross_entropy(logits.reshape(-1, VOCAB), tgt_out.reshape(-1), ignore_index=PAD, reduction="sum")
    return tok / len(tgt_out)


src_tr, tgt_tr = pairs(3000)
src_te, tgt_te = pairs(400)
model = Seq2Seq()
opt = torch.optim.SGD(model.parameters(), lr=2.0)
for update in range(400):
    idx = torch.randint(0, len(src_tr), (32,))
    logits = model(src_tr[idx], tgt_tr[idx, :-1])
    loss = seq_loss(logits, tgt_tr[idx, 1:])
    opt.zero_grad()
    loss.backward()
    if CLIP_C > 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP_C)
    opt.step()
    if update % 100 == 0:
        print(f"update {update} cost {loss.item():.4f}")

with torch.no_grad():
    logits = model(src_te, tgt_te[:, :-1])
    gold = tgt_te[:, 1:]
    mask = gold != PAD
    test_ce = F.cross_entropy(logits.reshape(-1, VOCAB), gold.reshape(-1), ignore_index=PAD).item()
    acc = ((logits.argmax(-1) == gold) & mask).sum().item() / mask.sum().item()
print(f"final_loss={test_ce:.6g} acc={acc:.4f}")
