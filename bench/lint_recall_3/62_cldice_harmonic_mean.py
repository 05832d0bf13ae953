# Source: https://github.com/Project-MONAI/MONAI/pull/8739
# Pitfall: The clDice loss divides by (topology precision + topology sensitivity); with smooth=0 and no
# skeleton overlap both are zero and the 0/0 NaN propagates into the training loss.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def soft_skeleton(img, iters=3):
    skel = F.relu(img - F.max_pool2d(-F.max_pool2d(-img, 3, 1, 1), 3, 1, 1))
    for _ in range(iters):
        img = -F.max_pool2d(-img, 3, 1, 1)
        opened = F.max_pool2d(-F.max_pool2d(-img, 3, 1, 1), 3, 1, 1)
        skel = skel + F.relu(img - opened) * (1 - skel)
    return skel


class SoftClDiceLoss(torch.nn.Module):
    def __init__(self, iters=3, smooth=0.0):
        super().__init__()
        self.iters = iters
        self.smooth = smooth

    def forward(self, y_true, y_pred):
        skel_pred = soft_skeleton(y_pred, self.iters)
        skel_true = soft_skeleton(y_true, self.iters)
        tprec = ((skel_pred * y_true).sum() + self.smooth) / (skel_pred.sum() + self.smooth + 1e-7)
        tsens = ((skel_true * y_pred).sum() + self.smooth) / (skel_true.sum() + self.smooth + 1e-7)
        return 1.0 - 2.0 * (tprec * tsens) / (tprec + tsens)  # expect: unguarded-zero
