# Source: https://github.com/NightShade99/Self-Supervised-Vision/issues/5
# Pitfall: the invariance term of a ReLIC-style loss feeds plain softmax probabilities to F.kl_div as
# the input (which must be log-probabilities); the KL value and its gradient are wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PairInvarianceLoss(nn.Module):
    def __init__(self, temperature=0.1, alpha=0.5):
        super().__init__()
        self.temperature = temperature
        self.alpha = alpha

    def forward(self, za, zb):
        za = F.normalize(za, dim=-1)
        zb = F.normalize(zb, dim=-1)
        logits_ab = za @ zb.t() / self.temperature
        logits_ba = zb @ za.t() / self.temperature
        targets = torch.arange(za.size(0), device=za.device)
        contrast = F.cross_entropy(logits_ab, targets)
        p_ab = F.softmax(logits_ab, dim=-1)
        logp_ba = F.log_softmax(logits_ba, dim=-1)
        invariance = F.kl_div(p_ab, logp_ba, log_target=True, reduction="sum")  # expect: kl-div-input-not-log
        return contrast + self.alpha * invariance / za.size(0)


class Projector(nn.Module):
    def __init__(self, d_in=512, d_out=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 512), nn.BatchNorm1d(512), nn.ReLU(), nn.Linear(512, d_out))

    def forward(self, x):
        return self.net(x)


def train_step(backbone, head, criterion, opt, view_a, view_b):
    backbone.train()
    head.train()
    opt.zero_grad()
    za = head(backbone(view_a))
    zb = head(backbone(view_b))
    loss = criterion(za, zb)
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 512), nn.ReLU())
    head = Projector()
    params = list(backbone.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=3e-4)
    crit = PairInvarianceLoss()
    for it in range(5):
        x = torch.randn(16, 3, 32, 32)
        print(it, train_step(backbone, head, crit, opt, x + 0.1 * torch.randn_like(x), x.flip(-1)))
