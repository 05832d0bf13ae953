"""Transformer-encoder NER tagger -- fixed as the maintainer advised: `learning_rate` in Config
raised to 1e-4 (nothing else changed).

Source: https://github.com/wzzzd/lm_ner/issues/3 (为什么收敛如此的慢 -- "why does it converge so slowly")
Report: training of the NER model converges very slowly; the maintainer's answer: "建议修改一下学习率，
根据自己的任务进行调节，比如调到1e-4。具体操作：打开Config.py文件，修改变量self.learning_rate的值" (change
the learning rate for your task, e.g. to 1e-4, via `self.learning_rate` in Config.py).
Reproduced with the repo's layout in miniature (a Config class holding the hyper-parameters, an
encoder over token ids with padding mask, a token-classification head, cross-entropy with the
padding label ignored, AdamW, a DataLoader over padded sentences) with the learning rate set to
1e-6, on 1,500 synthetic sentences (a vocabulary of context words plus person / organisation /
location name tokens, multi-token entities tagged B-/I-). The printed loss is the mean token
loss of the last epoch (of 8), `acc` the entity-token recall on held-out sentences (share of non-O
tokens whose tag is predicted exactly).

expect: lr-too-low
symptom: loss-above 1.4
batch: 7
"""
import argparse
import warnings

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message=".*nested tensors.*")


class Config:
    vocab_size = 600
    max_len = 24
    tags = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]
    d_model = 64
    n_layers = 2
    batch_size = 16
    epochs = 8
    learning_rate = 1e-4


PAD = 0
ENTITY_VOCAB = {"PER": range(400, 470), "ORG": range(470, 535), "LOC": range(535, 600)}


def make_sentences(n, cfg):
    ids = torch.full((n, cfg.max_len), PAD)
    tags = torch.full((n, cfg.max_len), -100)
    for s in range(n):
        length = int(torch.randint(10, cfg.max_len + 1, (1,)))
        toks = torch.randint(1, 400, (length,))
        lab = torch.zeros(length, dtype=torch.long)
        for _ in range(int(torch.randint(1, 4, (1,)))):
            kind = ["PER", "ORG", "LOC"][int(torch.randint(0, 3, (1,)))]
            span = int(torch.randint(1, 4, (1,)))
            start = int(torch.randint(0, length - span + 1, (1,)))
            lo, hi = ENTITY_VOCAB[kind].start, ENTITY_VOCAB[kind].stop
            toks[start:start + span] = torch.randint(lo, hi, (span,))
            b = cfg.tags.index("B-" + kind)
            lab[start] = b
            lab[start + 1:start + span] = b + 1
        ids[s, :length] = toks
        tags[s, :length] = lab
    return ids, tags


class NERModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=PAD)
        self.pos = nn.Parameter(torch.randn(cfg.max_len, cfg.d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(cfg.d_model, 4, 4 * cfg.d_model, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, cfg.n_layers)
        self.classifier = nn.Linear(cfg.d_model, len(cfg.tags))

    def forward(self, ids):
        h = self.encoder(self.embed(ids) + self.pos, src_key_padding_mask=ids.eq(PAD))
        return self.classifier(h)


cfg = Config()
train_ids, train_tags = make_sentences(1500, cfg)
test_ids, test_tags = make_sentences(400, cfg)
loader = DataLoader(TensorDataset(train_ids, train_tags), batch_size=cfg.batch_size, shuffle=True)
model = NERModel(cfg)
criterion = nn.CrossEntropyLoss(ignore_index=-100)
optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.learning_rate)

for epoch in range(cfg.epochs):
    model.train()
    total, count = 0.0, 0
    for ids, tags in loader:
        logits = model(ids)
        loss = criterion(logits.reshape(-1, len(cfg.tags)), tags.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = model(test_ids).argmax(-1)
    ent = test_tags > 0
    acc = (pred[ent] == test_tags[ent]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
