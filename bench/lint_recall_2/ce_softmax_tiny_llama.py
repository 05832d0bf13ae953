# Source: https://github.com/bkitano/llama-from-scratch/issues/5
# Pitfall: forward() turns the vocabulary scores into probabilities with F.softmax and then calls F.cross_entropy on them; cross_entropy expects raw logits, so the loss is computed on a second softmax and barely moves.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ToyLanguageModel(nn.Module):
    def __init__(self, vocab_size, d_model=128):
        super().__init__()
        self.vocab_size = vocab_size
        self.tok_emb = nn.Embedding(vocab_size, d_model)
        self.mlp = nn.Sequential(
            nn.Linear(d_model, d_model),
            nn.ReLU(),
            nn.Linear(d_model, vocab_size),
        )

    def forward(self, idx, targets=None):
        scores = self.mlp(self.tok_emb(idx))
        probs = F.softmax(scores, dim=-1)
        if targets is None:
            return probs
        loss = F.cross_entropy(probs.view(-1, self.vocab_size), targets.view(-1))  # expect: softmax-before-cross-entropy
        return probs, loss


def fit(model, batches, steps=1000, lr=1e-3):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for step in range(steps):
        xs, ys = batches()
        _, loss = model(xs, ys)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f}")
