# Source: https://github.com/argusswift/YOLOv4-pytorch/issues/89
# Pitfall: the detection head already applies sigmoid to the objectness score and the loss is
# BCEWithLogitsLoss on that output.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class YoloHead(nn.Module):
    def __init__(self, ch, n_cls):
        super().__init__()
        self.pred = nn.Conv2d(ch, 5 + n_cls, 1)

    def forward(self, x):
        p = self.pred(x).permute(0, 2, 3, 1)
        conf = torch.sigmoid(p[..., 4:5])
        cls = torch.sigmoid(p[..., 5:])
        return p[..., :4], conf, cls


bce = nn.BCEWithLogitsLoss(reduction="none")


def conf_loss(head, feats, obj_mask):
    _, conf, _ = head(feats)
    return bce(conf, obj_mask).sum()  # expect: sigmoid-before-bce-with-logits
