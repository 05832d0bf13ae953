"""Single-shot detector head: multibox loc/conf layers and a test-phase softmax over class scores."""
import torch
import torch.nn as nn


class SSDHead(nn.Module):
    def __init__(self, phase, num_classes, source_channels=(512, 1024, 512, 256), boxes=(4, 6, 6, 6)):
        super().__init__()
        self.phase = phase
        self.num_classes = num_classes
        self.loc = nn.ModuleList(nn.Conv2d(c, b * 4, 3, padding=1) for c, b in zip(source_channels, boxes))
        self.conf = nn.ModuleList(nn.Conv2d(c, b * num_classes, 3, padding=1)
                                  for c, b in zip(source_channels, boxes))
        if phase == "test":
            self.softmax = nn.Softmax()  # expect: softmax-without-dim

    def forward(self, sources, priors):
        loc, conf = [], []
        for x, l, c in zip(sources, self.loc, self.conf):
            loc.append(l(x).permute(0, 2, 3, 1).contiguous())
            conf.append(c(x).permute(0, 2, 3, 1).contiguous())
        loc = torch.cat([o.view(o.size(0), -1) for o in loc], 1)
        conf = torch.cat([o.view(o.size(0), -1) for o in conf], 1)
        if self.phase == "test":
            return (
                loc.view(loc.size(0), -1, 4),
                self.softmax(conf.view(conf.size(0), -1, self.num_classes)),
                priors,
            )
        return loc.view(loc.size(0), -1, 4), conf.view(conf.size(0), -1, self.num_classes), priors


@torch.no_grad()
def detect(head, backbone, images, priors, conf_thresh=0.5):
    head.eval()
    backbone.eval()
    sources = backbone(images)
    loc, scores, _ = head(sources, priors)
    keep = scores[..., 1:].max(dim=-1).values > conf_thresh
    return loc[keep], scores[keep]
