# Source: https://github.com/mihaidusmanu/d2-net/issues/78
# Pitfall: the soft-detection score divides the feature map by its channel-wise maximum with no epsilon;
#   an all-zero descriptor makes the division 0/0 and the training loss turns NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftDetection(nn.Module):
    def __init__(self, soft_local_max_size=3):
        super().__init__()
        self.pad = soft_local_max_size // 2

    def forward(self, batch):
        b = batch.size(0)
        batch = F.relu(batch)
        neighbourhood_max = F.max_pool2d(batch, 2 * self.pad + 1, stride=1, padding=self.pad)
        local_max_score = (batch >= neighbourhood_max).float()
        depth_wise_max = torch.max(batch, dim=1)[0]
        depth_wise_max_score = batch / depth_wise_max.unsqueeze(1)  # expect: unguarded-zero
        all_scores = local_max_score * depth_wise_max_score
        score = torch.max(all_scores, dim=1)[0]
        return score / (score.view(b, -1).sum(dim=1).view(b, 1, 1) + 1e-8)


class DenseFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 128, 3, padding=1))
        self.detect = SoftDetection()

    def forward(self, image):
        dense = self.backbone(image)
        return dense, self.detect(dense)
