"""Character-level language model trained with truncated BPTT on GPU."""
import argparse
import logging

import torch
import torch.nn as nn

logger = logging.getLogger("charlm")


class CharLM(nn.Module):
    def __init__(self, vocab_size, emb_dim=64, hidden_dim=256, num_layers=1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim)
        self.rnn = nn.LSTM(emb_dim, hidden_dim, num_layers, batch_first=True)
        self.out = nn.Linear(hidden_dim, vocab_size)

    def forward(self, chars, hidden=None):
        emb = self.embed(chars)
        output, hidden = self.rnn(emb, hidden)
        return self.out(output), hidden


def make_batches(corpus_ids, batch_size, bptt):
    n = corpus_ids.size(0) // batch_size
    data = corpus_ids[: n * batch_size].view(batch_size, n)
    for start in range(0, n - 1, bptt):
        end = min(start + bptt, n - 1)
        yield data[:, start:end], data[:, start + 1:end + 1]


def train_epoch(args, model, batches, optimizer, criterion):
    model.train()
    total, count = 0.0, 0
    hidden = None
    for data, target in batches:
        if args.cuda:
            data.cuda()  # expect: tensor-op-result-discarded
            target.cuda()  # expect: tensor-op-result-discarded
        if hidden is not None:
            hidden = tuple(h.detach() for h in hidden)
        optimizer.zero_grad()
        logits, hidden = model(data, hidden)
        loss = criterion(logits.reshape(-1, logits.size(-1)), target.reshape(-1))
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        optimizer.step()
        total += loss.item()
        count += 1
    return total / max(count, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--bptt", type=int, default=100)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--max_grad_norm", type=float, default=0.25)
    parser.add_argument("--cuda", action="store_true")
    args = parser.parse_args()

    corpus_ids = torch.randint(0, 96, (200_000,))
    model = CharLM(vocab_size=96)
    if args.cuda:
        model = model.cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        batches = make_batches(corpus_ids, args.batch_size, args.bptt)
        loss = train_epoch(args, model, batches, optimizer, criterion)
        logger.info("epoch %d loss %.4f", epoch, loss)


if __name__ == "__main__":
    main()
