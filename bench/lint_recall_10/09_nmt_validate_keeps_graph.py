# Source: https://github.com/OpenNMT/OpenNMT-py/commit/f24034627492
# Pitfall: the translation trainer's validate() switches the model to eval mode but runs the forward passes
#   without torch.no_grad(), so autograd records a graph for every validation batch and memory balloons.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class RunningStats:
    def __init__(self):
        self.loss, self.words, self.correct = 0.0, 0, 0

    def add(self, loss, n_words, n_correct):
        self.loss += loss
        self.words += n_words
        self.correct += n_correct

    def ppl(self):
        return float(torch.exp(torch.tensor(self.loss / max(self.words, 1))))


class Seq2SeqTrainer:
    def __init__(self, model, optimizer, pad_idx, grad_clip=5.0):
        self.model = model
        self.optimizer = optimizer
        self.pad_idx = pad_idx
        self.grad_clip = grad_clip
        self.crit = nn.CrossEntropyLoss(ignore_index=pad_idx, reduction="sum")

    def _token_loss(self, batch):
        logits = self.model(batch.src, batch.tgt[:, :-1], batch.src_len)
        gold = batch.tgt[:, 1:]
        loss = self.crit(logits.reshape(-1, logits.size(-1)), gold.reshape(-1))
        keep = gold.ne(self.pad_idx)
        n_correct = (logits.argmax(-1).eq(gold) & keep).sum().item()
        return loss, keep.sum().item(), n_correct

    def train_step(self, batch):
        self.model.train()
        loss, n_words, _ = self._token_loss(batch)
        self.optimizer.zero_grad()
        (loss / n_words).backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        self.optimizer.step()
        return loss.item() / n_words

    def validate(self, valid_iter):
        self.model.eval()
        stats = RunningStats()
        for batch in valid_iter:
            logits = self.model(batch.src, batch.tgt[:, :-1], batch.src_len)  # expect: validation-in-train-mode
            gold = batch.tgt[:, 1:]
            loss = self.crit(logits.reshape(-1, logits.size(-1)), gold.reshape(-1))
            keep = gold.ne(self.pad_idx)
            stats.add(loss.item(), keep.sum().item(), (logits.argmax(-1).eq(gold) & keep).sum().item())
        self.model.train()
        return stats
