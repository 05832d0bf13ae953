# Source: https://github.com/OpenNMT/OpenNMT-py/issues/1141
# Pitfall: the trainer's validate() switches the model to eval mode but never disables autograd, so
# each validation batch stores activations for a backward that never comes (memory and time wasted).
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn


class Statistics:
    def __init__(self, loss=0.0, n_words=0, n_correct=0):
        self.loss, self.n_words, self.n_correct = loss, n_words, n_correct

    def update(self, other):
        self.loss += other.loss
        self.n_words += other.n_words
        self.n_correct += other.n_correct

    def ppl(self):
        return math.exp(min(self.loss / max(self.n_words, 1), 100))


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.generator = nn.Linear(dim, vocab)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.emb(src))
        dec, _ = self.decoder(self.emb(tgt_in), h)
        return self.generator(dec)


class Trainer:
    def __init__(self, model, optim, pad_idx=0):
        self.model = model
        self.optim = optim
        self.criterion = nn.CrossEntropyLoss(ignore_index=pad_idx, reduction="sum")
        self.pad_idx = pad_idx

    def _stats(self, logits, gold):
        loss = self.criterion(logits.flatten(0, 1), gold.flatten())
        mask = gold.ne(self.pad_idx)
        correct = logits.argmax(-1).eq(gold).masked_select(mask).sum().item()
        return loss, Statistics(loss.item(), mask.sum().item(), correct)

    def train_batch(self, src, tgt):
        self.model.train()
        self.optim.zero_grad()
        logits = self.model(src, tgt[:, :-1])
        loss, stats = self._stats(logits, tgt[:, 1:])
        n_tokens = max(stats.n_words, 1)
        (loss / n_tokens).backward()
        self.optim.step()
        return stats

    def validate(self, batches):
        self.model.eval()
        stats = Statistics()
        for src, tgt in batches:
            logits = self.model(src, tgt[:, :-1])  # expect: validation-in-train-mode
            _, batch_stats = self._stats(logits, tgt[:, 1:])
            stats.update(batch_stats)
        self.model.train()
        return stats


if __name__ == "__main__":
    model = TinySeq2Seq()
    trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=1e-3))
    data = [(torch.randint(1, 1000, (8, 12)), torch.randint(1, 1000, (8, 10))) for _ in range(4)]
    for src, tgt in data:
        trainer.train_batch(src, tgt)
    print(trainer.validate(data).ppl())
