"""Mixup contrastive (MixCo-style) pretraining: soft cross-entropy over mixed pairs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftCrossEntropy(nn.Module):
    def forward(self, logits, target):
        probs = F.softmax(logits, 1)
        loss = (-target * torch.log(probs)).sum(1).mean()  # expect: log-of-softmax
        return loss


class ProjectionHead(nn.Module):
    def __init__(self, in_dim, out_dim=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, in_dim), nn.ReLU(), nn.Linear(in_dim, out_dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


def mix_pairs(images, alpha=1.0):
    batch_size = images.size(0)
    lam = torch.distributions.Beta(alpha, alpha).sample((batch_size,)).to(images.device)
    perm = torch.randperm(batch_size, device=images.device)
    mixed = lam.view(-1, 1, 1, 1) * images + (1 - lam.view(-1, 1, 1, 1)) * images[perm]
    return mixed, lam, perm


def mixco_step(encoder, head, view1, view2, optimizer, criterion, temperature=0.2):
    encoder.train()
    head.train()
    mixed, lam, perm = mix_pairs(view1)
    z_mix = head(encoder(mixed))
    z_pos = head(encoder(view2))
    logits = z_mix @ z_pos.t() / temperature
    n = logits.size(0)
    target = torch.zeros(n, n, device=logits.device)
    idx = torch.arange(n, device=logits.device)
    target[idx, idx] = lam
    target[idx, perm] += 1 - lam
    loss = criterion(logits, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def pretrain(encoder, feat_dim, loader, epochs=100, lr=0.03):
    head = ProjectionHead(feat_dim)
    device = next(encoder.parameters()).device
    head.to(device)
    params = list(encoder.parameters()) + list(head.parameters())
    optimizer = torch.optim.SGD(params, lr=lr, momentum=0.9, weight_decay=1e-4)
    criterion = SoftCrossEntropy()
    for epoch in range(epochs):
        running = 0.0
        for (v1, v2), _ in loader:
            running += mixco_step(encoder, head, v1.to(device), v2.to(device), optimizer, criterion)
        print(f"epoch {epoch}: {running / len(loader):.4f}")
    return encoder
