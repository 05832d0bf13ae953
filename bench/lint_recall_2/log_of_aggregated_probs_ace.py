# Source: https://github.com/summerlvsong/Aggregation-Cross-Entropy/issues/2
# Pitfall: The aggregation cross-entropy sums the per-step softmax scores and takes torch.log of the normalised sum; a class that never fires in the sequence has probability 0 and the log gives -inf, so the loss turns NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AggregationCE(nn.Module):
    def forward(self, logits, char_counts):
        # logits: (T, N, C), char_counts: (N, C) with the blank count in column 0
        T = logits.size(0)
        probs = F.softmax(logits, dim=2)
        aggregated = probs.sum(dim=0) / T
        targets = char_counts.float() / T
        loss = -(targets * torch.log(aggregated)).sum(dim=1)  # expect: unguarded-zero
        return loss.mean()


def train(model, loader, epochs=10):
    criterion = AggregationCE()
    optimizer = torch.optim.Adadelta(model.parameters())
    for _ in range(epochs):
        model.train()
        for images, counts in loader:
            optimizer.zero_grad()
            loss = criterion(model(images), counts)
            loss.backward()
            optimizer.step()
