"""Metric-learning trainer with a hand-rolled circle loss over pair similarities."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class EmbeddingNet(nn.Module):
    def __init__(self, in_dim=128, emb_dim=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, 256), nn.ReLU(), nn.Linear(256, emb_dim))

    def forward(self, x):
        return F.normalize(self.body(x), dim=1)


def pair_logits(emb, labels, margin, gamma):
    sim = emb @ emb.t()
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool, device=emb.device)
    pos_mask = same & ~eye
    neg_mask = ~same
    op, on = 1 + margin, -margin
    dp, dn = 1 - margin, margin
    ap = torch.relu(op - sim.detach())
    an = torch.relu(sim.detach() - on)
    logit_p = -gamma * ap * (sim - dp)
    logit_n = gamma * an * (sim - dn)
    return logit_p, logit_n, pos_mask, neg_mask


def circle_loss(emb, labels, margin=0.25, gamma=256.0):
    logit_p, logit_n, pos_mask, neg_mask = pair_logits(emb, labels, margin, gamma)
    losses = []
    for i in range(emb.size(0)):
        if pos_mask[i].any() and neg_mask[i].any():
            pos_exp = torch.exp(logit_p[i][pos_mask[i]]).sum()
            neg_exp = torch.exp(logit_n[i][neg_mask[i]]).sum()
            losses.append(torch.log(1 + pos_exp * neg_exp))  # expect: unshifted-logsumexp
    if not losses:
        return emb.sum() * 0.0
    return torch.stack(losses).mean()


def train(dataset, epochs=10, device="cuda"):
    model = EmbeddingNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for x, y in loader:
            x = x.to(device, non_blocking=True)
            y = y.to(device, non_blocking=True)
            opt.zero_grad()
            loss = circle_loss(model(x), y)
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: circle loss {running / max(len(loader), 1):.4f}")
    return model
