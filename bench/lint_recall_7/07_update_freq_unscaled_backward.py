# Source: https://github.com/facebookresearch/ParlAI/pull/1833
# Pitfall: with --update-freq N the agent calls backward on the full per-batch loss and steps every
#   N batches, so the accumulated gradient is N times the mean and the learning rate is inflated.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn


class Seq2SeqLite(nn.Module):
    def __init__(self, vocab=5000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.embed(src))
        dec, _ = self.decoder(self.embed(tgt_in), h)
        return self.out(dec)


class GeneratorAgent:
    def __init__(self, opt):
        self.opt = opt
        self.model = Seq2SeqLite()
        self.criterion = nn.CrossEntropyLoss(ignore_index=0)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=opt.learningrate)
        self._number_grad_accum = 0

    def backward(self, loss):
        loss.backward()  # expect: accumulation-not-averaged

    def update_params(self):
        update_freq = self.opt.update_freq
        if update_freq > 1:
            self._number_grad_accum = (self._number_grad_accum + 1) % update_freq
            if self._number_grad_accum != 0:
                return
        if self.opt.gradient_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.opt.gradient_clip)
        self.optimizer.step()
        self.optimizer.zero_grad()

    def train_step(self, src, tgt):
        self.model.train()
        scores = self.model(src, tgt[:, :-1])
        loss = self.criterion(scores.reshape(-1, scores.size(-1)), tgt[:, 1:].reshape(-1))
        self.backward(loss)
        self.update_params()
        return loss.item()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--update-freq", dest="update_freq", type=int, default=4)
    parser.add_argument("--learningrate", type=float, default=1e-3)
    parser.add_argument("--gradient-clip", dest="gradient_clip", type=float, default=0.1)
    opt = parser.parse_args()
    agent = GeneratorAgent(opt)
    for i in range(40):
        src = torch.randint(1, 5000, (32, 20))
        tgt = torch.randint(1, 5000, (32, 16))
        value = agent.train_step(src, tgt)
        if i % 10 == 0:
            print(i, round(value, 3))
