"""Seq2seq trainer with a periodic validate() pass (OpenNMT-style Trainer object)."""
import torch
import torch.nn as nn


class Statistics:
    def __init__(self, loss=0.0, n_words=0, n_correct=0):
        self.loss = loss
        self.n_words = n_words
        self.n_correct = n_correct

    def update(self, other):
        self.loss += other.loss
        self.n_words += other.n_words
        self.n_correct += other.n_correct

    def ppl(self):
        return torch.exp(torch.tensor(self.loss / max(self.n_words, 1))).item()


class Trainer:
    def __init__(self, model, generator, optim, padding_idx, device):
        self.model = model
        self.generator = generator
        self.optim = optim
        self.device = device
        self.criterion = nn.NLLLoss(ignore_index=padding_idx, reduction="sum")
        self.padding_idx = padding_idx

    def _stats(self, loss, scores, target):
        pred = scores.argmax(dim=1)
        non_pad = target.ne(self.padding_idx)
        correct = pred.eq(target).masked_select(non_pad).sum().item()
        return Statistics(loss.item(), non_pad.sum().item(), correct)

    def train_batch(self, src, tgt, lengths):
        self.model.train()
        self.optim.zero_grad()
        outputs, _ = self.model(src, tgt[:-1], lengths)
        scores = self.generator(outputs.view(-1, outputs.size(2)))
        gold = tgt[1:].reshape(-1)
        loss = self.criterion(scores, gold)
        n_tokens = gold.ne(self.padding_idx).sum()
        (loss / n_tokens).backward()
        self.optim.step()
        return self._stats(loss, scores, gold)

    def validate(self, valid_iter):
        self.model.eval()
        stats = Statistics()
        for batch in valid_iter:
            src, tgt, lengths = (t.to(self.device) for t in batch)
            outputs, _ = self.model(src, tgt[:-1], lengths)  # expect: validation-in-train-mode
            scores = self.generator(outputs.view(-1, outputs.size(2)))
            gold = tgt[1:].reshape(-1)
            loss = self.criterion(scores, gold)
            stats.update(self._stats(loss, scores, gold))
        self.model.train()
        return stats

    def train(self, train_iter, valid_iter, valid_every=1000):
        step = 0
        for batch in train_iter:
            src, tgt, lengths = (t.to(self.device) for t in batch)
            self.train_batch(src, tgt, lengths)
            step += 1
            if step % valid_every == 0:
                stats = self.validate(valid_iter)
                print(f"step {step}: valid ppl {stats.ppl():.2f}")
