# Source: https://github.com/Turoad/lanedet/issues/32
# Pitfall: The lane-existence head already returns sigmoid probabilities, but the training loss uses
# BCEWithLogitsLoss, which applies a second sigmoid; predictions are squeezed into [0.5, 0.73].
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class LaneExistHead(nn.Module):
    def __init__(self, in_ch, n_lanes=4):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, 8, 1)
        self.pool = nn.AdaptiveAvgPool2d((4, 8))
        self.fc9 = nn.Linear(8 * 4 * 8, 128)
        self.fc10 = nn.Linear(128, n_lanes)

    def forward(self, feat):
        x = self.pool(torch.relu(self.conv(feat))).flatten(1)
        x = torch.relu(self.fc9(x))
        return torch.sigmoid(self.fc10(x))


class LaneSegLoss(nn.Module):
    def __init__(self, exist_weight=0.1):
        super().__init__()
        self.seg_ce = nn.CrossEntropyLoss(ignore_index=255)
        self.exist_bce = nn.BCEWithLogitsLoss()
        self.exist_weight = exist_weight

    def forward(self, seg_logits, exist_probs, seg_gt, exist_gt):
        loss = self.seg_ce(seg_logits, seg_gt)
        loss = loss + self.exist_weight * self.exist_bce(exist_probs, exist_gt.float())  # expect: sigmoid-before-bce-with-logits
        return loss
