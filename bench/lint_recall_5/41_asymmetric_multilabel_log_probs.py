# Source: https://github.com/Alibaba-MIIL/ASL/pull/6
# Pitfall: the asymmetric multi-label loss takes torch.log of the sigmoid probabilities (and of 1 - p) with no
#          epsilon; a large logit makes a probability exactly 0 and the loss becomes inf/NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class AsymmetricMultiLabelLoss(nn.Module):
    def __init__(self, gamma_neg=4, gamma_pos=1, clip=0.05):
        super().__init__()
        self.gamma_neg, self.gamma_pos, self.clip = gamma_neg, gamma_pos, clip

    def forward(self, logits, targets):
        xs_pos = torch.sigmoid(logits)
        xs_neg = 1 - xs_pos
        if self.clip is not None and self.clip > 0:
            xs_neg = (xs_neg + self.clip).clamp(max=1)
        los_pos = targets * torch.log(xs_pos)  # expect: unguarded-zero
        los_neg = (1 - targets) * torch.log(xs_neg.clamp(min=1e-8))
        loss = los_pos + los_neg
        pt = xs_pos * targets + xs_neg * (1 - targets)
        gamma = self.gamma_pos * targets + self.gamma_neg * (1 - targets)
        loss = loss * torch.pow(1 - pt, gamma)
        return -loss.sum()


def train(steps=50, n_labels=80):
    backbone = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, n_labels))
    criterion = AsymmetricMultiLabelLoss()
    opt = torch.optim.Adam(backbone.parameters(), lr=1e-4, weight_decay=1e-4)
    for step in range(steps):
        feats = torch.randn(32, 512)
        labels = (torch.rand(32, n_labels) < 0.05).float()
        opt.zero_grad()
        loss = criterion(backbone(feats), labels)
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    train()
