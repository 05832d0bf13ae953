"""Multi-similarity loss written out per anchor for a product-retrieval model."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiSimilarityLoss(nn.Module):
    def __init__(self, alpha=2.0, beta=50.0, base=0.5):
        super().__init__()
        self.alpha = alpha
        self.beta = beta
        self.base = base

    def exp_loss(self, pair_sims, weight, scale):
        inside = weight * (pair_sims - self.base)
        return scale * torch.log(1 + torch.sum(torch.exp(inside)))  # expect: unshifted-logsumexp

    def forward(self, embeddings, labels):
        sims = embeddings @ embeddings.t()
        total = embeddings.new_zeros(())
        count = 0
        for i in range(sims.size(0)):
            same = labels == labels[i]
            same[i] = False
            diff = labels != labels[i]
            if same.any() and diff.any():
                pos = sims[i][same]
                neg = sims[i][diff]
                total = total + self.exp_loss(pos, -self.alpha, 1.0 / self.alpha)
                total = total + self.exp_loss(neg, self.beta, 1.0 / self.beta)
                count += 1
        return total / max(count, 1)


class Retriever(nn.Module):
    def __init__(self, backbone, feat_dim=2048, emb_dim=256):
        super().__init__()
        self.backbone = backbone
        self.fc = nn.Linear(feat_dim, emb_dim)

    def forward(self, images):
        return F.normalize(self.fc(self.backbone(images)), dim=1)


def train_epoch(model, loader, optimizer, device):
    criterion = MultiSimilarityLoss()
    model.train()
    seen = 0.0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        seen += loss.item()
    return seen / max(len(loader), 1)
