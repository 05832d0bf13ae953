"""Very deep pairwise word interaction model for semantic similarity (SICK)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PairwiseInteraction(nn.Module):
    def __init__(self, embed_dim=300, hidden=250, n_classes=5):
        super().__init__()
        self.lstm = nn.LSTM(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.conv = nn.Sequential(
            nn.Conv2d(4, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d(4),
        )
        self.out = nn.Sequential(nn.Flatten(), nn.Linear(128 * 16, 128), nn.ReLU(), nn.Linear(128, n_classes))

    def interactions(self, a, b):
        cos = F.cosine_similarity(a.unsqueeze(2), b.unsqueeze(1), dim=-1)
        l2 = torch.cdist(a, b)
        dot = torch.bmm(a, b.transpose(1, 2))
        return torch.stack([cos, l2, dot, torch.ones_like(dot)], dim=1)

    def forward(self, sent_a, sent_b):
        ha, _ = self.lstm(sent_a)
        hb, _ = self.lstm(sent_b)
        logits = self.out(self.conv(self.interactions(ha, hb)))
        return torch.log(F.softmax(logits, dim=1))  # expect: log-of-softmax


def score_to_distribution(score, n_classes=5):
    """SICK relatedness score in [1, 5] -> sparse target distribution."""
    target = torch.zeros(score.size(0), n_classes)
    floor = score.floor().long().clamp(1, n_classes)
    frac = score - floor.float()
    target.scatter_(1, (floor - 1).unsqueeze(1), (1 - frac).unsqueeze(1))
    upper = floor.clamp(max=n_classes - 1)
    target.scatter_add_(1, upper.unsqueeze(1), frac.unsqueeze(1))
    return target


def train(model, batches, epochs=10, lr=5e-4):
    optimizer = torch.optim.RMSprop(model.parameters(), lr=lr)
    kl = nn.KLDivLoss(reduction="batchmean")
    for epoch in range(epochs):
        model.train()
        for sent_a, sent_b, score in batches:
            optimizer.zero_grad()
            log_probs = model(sent_a, sent_b)
            loss = kl(log_probs, score_to_distribution(score))
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())


if __name__ == "__main__":
    data = [(torch.randn(16, 12, 300), torch.randn(16, 14, 300), torch.rand(16) * 4 + 1) for _ in range(20)]
    train(PairwiseInteraction(), data)
