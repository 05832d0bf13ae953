"""Fault: loss-reduction. A character-level GRU language model whose loss is the *sum*
of token cross-entropies over the batch and the sequence (reduction="sum"), trained
with SGD+momentum at lr=0.05. The gradient is batch*length = 1024x what the learning
rate was chosen for: the loss jumps around at a high level and spikes instead of
decreasing.

Mechanism: token-level summed loss; gradient grows with batch and sequence length.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class CharRNN(nn.Module):
    def __init__(self, vocab, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def corpus(seed, n=20000, vocab=20):
    g = torch.Generator().manual_seed(seed)
    # a noisy "grammar": next char = (prev * 3 + 1) mod vocab most of the time
    seq = torch.empty(n, dtype=torch.long)
    seq[0] = 1
    noise = torch.rand(n, generator=g) < 0.2
    rnd = torch.randint(0, vocab, (n,), generator=g)
    for t in range(1, n):
        seq[t] = rnd[t] if noise[t] else (seq[t - 1] * 3 + 1) % vocab
    return seq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=150)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    data = corpus(a.seed)
    model = CharRNN(20)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    B, L = 32, 32
    for step in range(a.steps):
        starts = torch.randint(0, len(data) - L - 1, (B,))
        x = torch.stack([data[s:s + L] for s in starts])
        y = torch.stack([data[s + 1:s + L + 1] for s in starts])
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, 20), y.reshape(-1), reduction="sum")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss/token {loss.item() / (B * L):.4f}")


if __name__ == "__main__":
    main()
