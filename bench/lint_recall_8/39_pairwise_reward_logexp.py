# Source: https://github.com/OpenRLHF/OpenRLHF/pull/1278
# Pitfall: the pairwise reward-model loss is written as log(1 + exp(rejected - chosen)) by hand;
# a reward gap of ~90 or more overflows exp to inf, the loss becomes inf and the gradient NaN.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn


class PairwiseLogExp(nn.Module):
    """Ranking loss: the chosen answer should score above the rejected one."""

    def forward(self, good_scores, bad_scores, margin=None):
        gap = bad_scores - good_scores
        if margin is not None:
            gap = gap + margin
        per_pair = torch.log(1 + torch.exp(gap))  # expect: unshifted-logsumexp
        return per_pair.mean()


class SequenceScorer(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.encoder = nn.GRU(width, width, batch_first=True)
        self.value_head = nn.Linear(width, 1)

    def forward(self, token_ids):
        states, _ = self.encoder(self.embed(token_ids))
        return self.value_head(states[:, -1]).squeeze(-1)


def build_criterion(kind):
    if kind == "logexp":
        return PairwiseLogExp()
    raise ValueError(f"unknown loss type {kind}")


def train(args, pairs):
    scorer = SequenceScorer(args.vocab, args.width)
    criterion = build_criterion(args.loss_type)
    optim = torch.optim.AdamW(scorer.parameters(), lr=args.lr)
    scorer.train()
    for step, (chosen, rejected) in enumerate(pairs):
        optim.zero_grad()
        loss = criterion(scorer(chosen), scorer(rejected))
        loss.backward()
        optim.step()
        if step % args.log_every == 0:
            print(f"step {step} loss {loss.item():.4f}")
    return scorer


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss_type", default="logexp")
    parser.add_argument("--vocab", type=int, default=1000)
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--log_every", type=int, default=20)
    cli = parser.parse_args()
    fake = [(torch.randint(0, cli.vocab, (4, 16)), torch.randint(0, cli.vocab, (4, 16))) for _ in range(50)]
    train(cli, fake)
