# Source: https://github.com/pytorch/pytorch/issues/24816
# Pitfall: Attention scores are filled with -inf at padded key positions and then softmaxed; a sequence that is entirely padding has a row of -inf, softmax returns 0/0 = NaN, and the NaN spreads through backward() into every weight.
# Reproduced in our own words, not the original code.
import math
import torch
import torch.nn as nn


class PaddedSelfAttention(nn.Module):
    def __init__(self, d_model=64):
        super().__init__()
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.scale = 1.0 / math.sqrt(d_model)

    def forward(self, x, key_padding_mask):
        # key_padding_mask: (B, S), True where the token is padding
        scores = self.q(x) @ self.k(x).transpose(1, 2) * self.scale
        scores = scores.masked_fill(key_padding_mask.unsqueeze(1), float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # expect: fully-masked-softmax
        return weights @ self.v(x)


def train(model, head, loader, epochs=5):
    params = list(model.parameters()) + list(head.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-4)
    criterion = nn.MSELoss()
    for _ in range(epochs):
        model.train()
        for x, pad_mask, target in loader:
            optimizer.zero_grad()
            pooled = model(x, pad_mask).mean(dim=1)
            loss = criterion(head(pooled), target)
            loss.backward()
            optimizer.step()
