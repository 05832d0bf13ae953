# Source: https://github.com/rixwew/pytorch-fm/commit/8ac848dca873573b7c83a7419cb162e727dc7151
# Pitfall: the attentional factorization machine calls F.dropout on its attention scores and pooled output
#   without training=self.training, so dropout keeps firing after model.eval() and test predictions are noisy.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class PairwiseAttentionPool(torch.nn.Module):
    def __init__(self, embed_dim, attn_size, dropouts=(0.2, 0.2)):
        super().__init__()
        self.attention = torch.nn.Linear(embed_dim, attn_size)
        self.projection = torch.nn.Linear(attn_size, 1)
        self.fc = torch.nn.Linear(embed_dim, 1)
        self.dropouts = dropouts

    def forward(self, x):
        # x: (batch, num_fields, embed_dim)
        n = x.shape[1]
        rows, cols = torch.triu_indices(n, n, offset=1)
        inner = x[:, rows] * x[:, cols]
        scores = F.relu(self.attention(inner))
        scores = F.softmax(self.projection(scores), dim=1)
        scores = F.dropout(scores, p=self.dropouts[0])  # expect: functional-dropout-always-on
        pooled = torch.sum(scores * inner, dim=1)
        pooled = F.dropout(pooled, p=self.dropouts[1])  # expect: functional-dropout-always-on
        return self.fc(pooled)


class AttentionalFM(torch.nn.Module):
    def __init__(self, field_dims, embed_dim=16, attn_size=16):
        super().__init__()
        self.offsets = torch.tensor([0, *torch.cumsum(torch.tensor(field_dims), 0)[:-1].tolist()])
        self.embedding = torch.nn.Embedding(sum(field_dims), embed_dim)
        self.linear = torch.nn.Embedding(sum(field_dims), 1)
        self.bias = torch.nn.Parameter(torch.zeros(1))
        self.afm = PairwiseAttentionPool(embed_dim, attn_size)

    def forward(self, x):
        x = x + self.offsets.to(x.device).unsqueeze(0)
        first_order = self.linear(x).sum(dim=1) + self.bias
        return (first_order + self.afm(self.embedding(x))).squeeze(1)


def evaluate_auc_inputs(model, loader, device):
    model.eval()
    scores, targets = [], []
    with torch.no_grad():
        for fields, target in loader:
            scores.append(torch.sigmoid(model(fields.to(device))).cpu())
            targets.append(target)
    model.train()
    return torch.cat(scores), torch.cat(targets)
