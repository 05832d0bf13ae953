# Source: https://github.com/huggingface/transformers/pull/1136
# Pitfall: in the fine-tuning loop the warmup scheduler is stepped before the optimizer; since
# PyTorch 1.1 this skips the first learning-rate value of the schedule (and triggers a warning).
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR
from torch.utils.data import DataLoader, TensorDataset


def linear_warmup(optimizer, warmup, total):
    def factor(step):
        if step < warmup:
            return float(step) / float(max(1, warmup))
        return max(0.0, float(total - step) / float(max(1, total - warmup)))
    return LambdaLR(optimizer, factor)


class SpanHead(nn.Module):
    def __init__(self, vocab=5000, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 256, batch_first=True), 2)
        self.qa = nn.Linear(dim, 2)

    def forward(self, ids, start=None, end=None):
        start_logits, end_logits = self.qa(self.enc(self.emb(ids))).unbind(-1)
        ce = nn.CrossEntropyLoss()
        return (ce(start_logits, start) + ce(end_logits, end)) / 2


def train(args):
    ids = torch.randint(0, 5000, (64, 48))
    starts = torch.randint(0, 48, (64,))
    ends = torch.randint(0, 48, (64,))
    loader = DataLoader(TensorDataset(ids, starts, ends), batch_size=args.batch_size, shuffle=True)
    model = SpanHead()
    total = len(loader) // args.grad_accum * args.epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    scheduler = linear_warmup(optimizer, args.warmup, total)
    global_step = 0
    model.zero_grad()
    for _ in range(args.epochs):
        model.train()
        for step, (b_ids, b_start, b_end) in enumerate(loader):
            loss = model(b_ids, b_start, b_end)
            loss = loss / args.grad_accum
            loss.backward()
            if (step + 1) % args.grad_accum == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                scheduler.step()  # expect: scheduler-before-optimizer
                optimizer.step()
                model.zero_grad()
                global_step += 1
    return global_step


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--grad_accum", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--max_grad_norm", type=float, default=1.0)
    print(train(parser.parse_args()))
