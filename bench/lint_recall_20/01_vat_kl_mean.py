"""Virtual adversarial training loss for semi-supervised image classification."""
import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F


@contextlib.contextmanager
def frozen_bn_stats(model):
    def toggle(m):
        if hasattr(m, "track_running_stats"):
            m.track_running_stats ^= True

    model.apply(toggle)
    yield
    model.apply(toggle)


def l2_normalize(d):
    flat = d.view(d.size(0), -1)
    norm = flat.norm(dim=1).view(-1, *([1] * (d.dim() - 1)))
    return d / (norm + 1e-8)


class VirtualAdversarialLoss(nn.Module):
    def __init__(self, xi=10.0, eps=1.0, power_iters=1):
        super().__init__()
        self.xi = xi
        self.eps = eps
        self.power_iters = power_iters
        self.divergence = nn.KLDivLoss()  # expect: kl-div-mean-reduction

    def forward(self, model, x):
        with torch.no_grad():
            target_probs = F.softmax(model(x), dim=1)

        d = l2_normalize(torch.rand_like(x) - 0.5)
        with frozen_bn_stats(model):
            for _ in range(self.power_iters):
                d.requires_grad_()
                perturbed_logp = F.log_softmax(model(x + self.xi * d), dim=1)
                adv_distance = self.divergence(perturbed_logp, target_probs)
                grad = torch.autograd.grad(adv_distance, d)[0]
                d = l2_normalize(grad.detach())
                model.zero_grad()

            r_adv = d * self.eps
            adv_logp = F.log_softmax(model(x + r_adv), dim=1)
            return self.divergence(adv_logp, target_probs)


def train_epoch(model, labeled_loader, unlabeled_loader, optimizer, device, alpha=1.0):
    vat = VirtualAdversarialLoss()
    model.train()
    for (x_l, y_l), (x_u, _) in zip(labeled_loader, unlabeled_loader):
        x_l, y_l, x_u = x_l.to(device), y_l.to(device), x_u.to(device)
        optimizer.zero_grad()
        lds = vat(model, x_u)
        ce = F.cross_entropy(model(x_l), y_l)
        loss = ce + alpha * lds
        loss.backward()
        optimizer.step()
