# Source: https://github.com/rixwew/pytorch-fm/issues/21
# Pitfall: F.dropout on the attention scores without training=self.training keeps dropping
# scores after model.eval() (fixed upstream in 8ac848d).
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch import nn


class AttentionalFM(nn.Module):
    def __init__(self, dim, attn_size, dropouts=(0.1, 0.1)):
        super().__init__()
        self.attention = nn.Linear(dim, attn_size)
        self.projection = nn.Linear(attn_size, 1)
        self.fc = nn.Linear(dim, 1)
        self.dropouts = dropouts

    def forward(self, inner_product):
        attn_scores = F.relu(self.attention(inner_product))
        attn_scores = F.softmax(self.projection(attn_scores), dim=1)
        attn_scores = F.dropout(attn_scores, p=self.dropouts[0])  # expect: functional-dropout-always-on
        attn_output = torch.sum(attn_scores * inner_product, dim=1)
        attn_output = F.dropout(attn_output, p=self.dropouts[1], training=self.training)
        return self.fc(attn_output)
