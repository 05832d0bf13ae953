# Source: https://github.com/svishwa/crowdcount-cascaded-mtl/issues/22
# Pitfall: the density-level classifier calls F.softmax(density_cls_score) without dim, relying
#   on the deprecated implicit choice (users could not tell whether 0 or 1 was meant).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CascadedCounter(nn.Module):
    def __init__(self, num_density_levels=10):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(1, 16, 9, padding=4), nn.PReLU(), nn.Conv2d(16, 32, 7, padding=3), nn.PReLU())
        self.hl_prior = nn.Sequential(nn.Conv2d(32, 16, 9, padding=4), nn.PReLU(), nn.AdaptiveMaxPool2d((32, 32)))
        self.hl_fc = nn.Sequential(nn.Flatten(), nn.Linear(16 * 32 * 32, 512), nn.PReLU(), nn.Linear(512, num_density_levels))
        self.density = nn.Sequential(nn.Conv2d(32, 16, 7, padding=3), nn.PReLU(), nn.Conv2d(16, 1, 1))

    def forward(self, im):
        feats = self.base(im)
        density_cls_score = self.hl_fc(self.hl_prior(feats))
        density_map = self.density(feats)
        return density_map, density_cls_score


class CrowdCounter(nn.Module):
    def __init__(self, num_density_levels=10, ce_weights=None):
        super().__init__()
        self.net = CascadedCounter(num_density_levels)
        self.loss_mse = nn.MSELoss()
        self.loss_bce = nn.BCELoss(weight=ce_weights)

    def forward(self, im, gt_density, gt_cls_label):
        density_map, density_cls_score = self.net(im)
        density_cls_prob = F.softmax(density_cls_score)  # expect: softmax-without-dim
        loss = self.loss_mse(density_map, gt_density) + 1e-4 * self.loss_bce(density_cls_prob, gt_cls_label)
        return density_map, loss
