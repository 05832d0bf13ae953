"""Style: a functional seq2seq loop with a masked token loss and a trainer function."""
import torch
import torch.nn.functional as F
from torch import nn

PAD = 0


class Seq2Seq(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.enc = nn.GRU(d, d, batch_first=True)
        self.dec = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, src, tgt_in):
        _, h = self.enc(self.emb(src))
        y, _ = self.dec(self.emb(tgt_in), h)
        return self.out(y)


def token_nll(logits, tgt):
    logp = F.softmax(logits, dim=-1).log()  # expect: log-of-softmax
    nll = -logp.gather(-1, tgt.unsqueeze(-1)).squeeze(-1)
    mask = tgt != PAD
    return (nll * mask).sum() / mask.sum()  # expect: unguarded-zero


def train_epoch(model, loader, opt, clip=1.0):
    model.train()
    for src, tgt in loader:
        loss = token_nll(model(src, tgt[:, :-1]), tgt[:, 1:])
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    losses = [token_nll(model(src, tgt[:, :-1]), tgt[:, 1:]).item() for src, tgt in loader]
    return sum(losses) / max(len(losses), 1)
