# Source: https://github.com/rixwew/pytorch-fm/issues/21
# Pitfall: The attentional factorization machine drops attention scores with F.dropout(attn_scores, p=...) but never passes training=self.training, so dropout keeps firing after model.eval() and evaluation scores are random.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionalInteraction(nn.Module):
    def __init__(self, embed_dim, attn_size, dropouts=(0.1, 0.1)):
        super().__init__()
        self.attention = nn.Linear(embed_dim, attn_size)
        self.projection = nn.Linear(attn_size, 1)
        self.fc = nn.Linear(embed_dim, 1)
        self.dropouts = dropouts

    def forward(self, x):
        n_fields = x.shape[1]
        rows, cols = torch.triu_indices(n_fields, n_fields, offset=1)
        inner = x[:, rows] * x[:, cols]
        attn_scores = F.relu(self.attention(inner))
        attn_scores = F.softmax(self.projection(attn_scores), dim=1)
        attn_scores = F.dropout(attn_scores, p=self.dropouts[0])  # expect: functional-dropout-always-on
        attn_output = torch.sum(attn_scores * inner, dim=1)
        attn_output = F.dropout(attn_output, p=self.dropouts[1], training=self.training)
        return self.fc(attn_output)


def evaluate(model, loader):
    model.eval()
    preds = []
    with torch.no_grad():
        for fields, _ in loader:
            preds.append(torch.sigmoid(model(fields)).squeeze(1))
    return torch.cat(preds)
