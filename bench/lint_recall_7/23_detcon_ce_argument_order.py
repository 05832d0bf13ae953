# Source: https://github.com/isaaccorley/detcon-pytorch/issues/1
# Pitfall: both contrastive terms call the cross-entropy helper as (logits, labels, weight) although
#   it is defined as (labels, logits, weight); the one-hot targets get log-softmaxed instead of logits.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def manual_cross_entropy(labels, logits, weight):
    ce = -weight * torch.sum(labels * F.log_softmax(logits, dim=-1), dim=-1)
    return torch.mean(ce)


class MaskPooledContrastiveLoss(nn.Module):
    """Contrast pooled region embeddings of two augmented views of the same images."""

    def __init__(self, temperature=0.1):
        super().__init__()
        self.temperature = temperature

    def forward(self, pred1, pred2, target1, target2, ids1, ids2):
        b, n, _ = pred1.shape
        pred1, pred2 = F.normalize(pred1, dim=-1), F.normalize(pred2, dim=-1)
        target1, target2 = F.normalize(target1, dim=-1), F.normalize(target2, dim=-1)

        labels = F.one_hot(torch.arange(b * n, device=pred1.device), b * n).float().view(b, n, b * n)
        logits_ab = torch.einsum("bnd,md->bnm", pred1, target2.reshape(b * n, -1)) / self.temperature
        logits_ba = torch.einsum("bnd,md->bnm", pred2, target1.reshape(b * n, -1)) / self.temperature

        same_object = (ids1.unsqueeze(-1) == ids2.reshape(1, 1, -1)).float()
        weight = same_object.sum(-1).clamp(min=1.0).reciprocal()
        loss_a = manual_cross_entropy(logits_ab, labels, weight)  # expect: loss-arguments-swapped
        loss_b = manual_cross_entropy(logits_ba, labels, weight)  # expect: loss-arguments-swapped
        return loss_a + loss_b


if __name__ == "__main__":
    proj = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 128))
    predictor = nn.Linear(128, 128)
    criterion = MaskPooledContrastiveLoss()
    optimizer = torch.optim.AdamW(list(proj.parameters()) + list(predictor.parameters()), lr=1e-3)
    for step in range(20):
        feats1, feats2 = torch.randn(4, 16, 256), torch.randn(4, 16, 256)
        ids = torch.randint(0, 16, (4, 16))
        z1, z2 = proj(feats1), proj(feats2)
        with torch.no_grad():
            t1, t2 = proj(feats1), proj(feats2)
        optimizer.zero_grad()
        loss = criterion(predictor(z1), predictor(z2), t1, t2, ids, ids)
        loss.backward()
        optimizer.step()
        print(step, loss.item())
