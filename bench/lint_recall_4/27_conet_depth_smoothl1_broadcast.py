# Source: https://github.com/jiwei0921/CoNet/issues/3
# Pitfall: the predicted depth map is (B, 1, H, W) while the depth target is loaded as (B, H, W);
#   F.smooth_l1_loss broadcasts them to (B, B, H, W) (PyTorch warns), mixing samples in the loss.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SaliencyDepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU())
        self.depth_head = nn.Conv2d(64, 1, 1)
        self.sal_head = nn.Conv2d(64, 1, 1)

    def forward(self, img):
        f = self.encoder(img)
        return self.sal_head(f), torch.sigmoid(self.depth_head(f))


class Trainer:
    def __init__(self, model, lr=1e-4, device="cuda"):
        self.model = model.to(device)
        self.device = device
        self.optim = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self, loader):
        self.model.train()
        for img, gt_sal, depth in loader:
            img = img.to(self.device)
            gt_sal = gt_sal.to(self.device)      # (B, 1, H, W)
            depth = depth.to(self.device)        # (B, H, W) as loaded from the .png files
            sal_logits, pred_depth = self.model(img)
            loss_sal = F.binary_cross_entropy_with_logits(sal_logits, gt_sal)
            loss_depth = F.smooth_l1_loss(pred_depth, depth, reduction="sum")  # expect: loss-shape-broadcast
            loss = loss_sal + loss_depth / img.size(0)
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
