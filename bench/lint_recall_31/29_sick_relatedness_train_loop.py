"""Train a sentence-pair relatedness model (SICK) against soft 5-class target distributions."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PairwiseConvModel(nn.Module):
    def __init__(self, dim=300, n_filters=128, n_classes=5):
        super().__init__()
        self.conv = nn.Conv1d(dim, n_filters, 3, padding=1)
        self.hidden = nn.Linear(4 * n_filters, 150)
        self.out = nn.Linear(150, n_classes)

    def encode(self, sent):
        return F.relu(self.conv(sent.transpose(1, 2))).max(dim=2).values

    def forward(self, sent1, sent2):
        a, b = self.encode(sent1), self.encode(sent2)
        feats = torch.cat([a, b, (a - b).abs(), a * b], dim=1)
        return self.out(torch.tanh(self.hidden(feats)))


def to_pmf(score, n_classes=5):
    pmf = torch.zeros(score.size(0), n_classes)
    ceil = score.ceil().long().clamp(1, n_classes)
    floor = score.floor().long().clamp(1, n_classes)
    pmf.scatter_add_(1, (ceil - 1).unsqueeze(1), (score - floor.float()).unsqueeze(1))
    pmf.scatter_add_(1, (floor - 1).unsqueeze(1), (ceil.float() - score + (ceil == floor).float()).unsqueeze(1))
    return pmf


def train(model, loader, epochs=5, lr=1e-3, clip_norm=50.0):
    optimizer = torch.optim.RMSprop(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for sent1, sent2, score in loader:
            optimizer.zero_grad()
            scores = F.log_softmax(model(sent1, sent2))  # expect: softmax-without-dim
            loss = F.kl_div(scores, to_pmf(score), reduction="batchmean")
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), clip_norm)
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")


if __name__ == "__main__":
    n = 512
    ds = TensorDataset(torch.randn(n, 20, 300), torch.randn(n, 18, 300), torch.rand(n) * 4 + 1)
    train(PairwiseConvModel(), DataLoader(ds, batch_size=32, shuffle=True))
