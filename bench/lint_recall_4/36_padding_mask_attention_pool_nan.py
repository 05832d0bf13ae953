# Source: https://github.com/pytorch/pytorch/issues/25110
# Pitfall: attention pooling fills padded positions with -inf and softmaxes; a batch row made only
#   of padding becomes 0/0 = NaN, which backward spreads into every parameter on the next step.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class AttentionPooling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, hidden, pad_mask):
        # hidden: (B, T, D); pad_mask: (B, T), True where the token is padding
        scores = self.score(hidden).squeeze(-1)
        scores = scores.masked_fill(pad_mask, float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # expect: fully-masked-softmax
        return torch.bmm(weights.unsqueeze(1), hidden).squeeze(1)


class ReviewClassifier(nn.Module):
    def __init__(self, vocab, dim=128, n_classes=2, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.pool = AttentionPooling(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        pad_mask = tokens.eq(self.pad_id)
        h, _ = self.encoder(self.embed(tokens))
        return self.head(self.pool(h, pad_mask))


def train(model, loader, epochs=3, lr=1e-3):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for tokens, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(tokens), labels)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.4f}")
