"""SSD detector head: confidence scores are turned into class probabilities at test time."""
import torch
import torch.nn as nn


class SSD(nn.Module):
    def __init__(self, phase, base, extras, head, num_classes, detect):
        super().__init__()
        self.phase = phase
        self.num_classes = num_classes
        self.vgg = nn.ModuleList(base)
        self.extras = nn.ModuleList(extras)
        self.loc = nn.ModuleList(head[0])
        self.conf = nn.ModuleList(head[1])
        if phase == "test":
            self.softmax = nn.Softmax()  # expect: softmax-without-dim
            self.detect = detect

    def forward(self, x, priors):
        sources, loc, conf = [], [], []
        for layer in self.vgg:
            x = layer(x)
        sources.append(x)
        for k, v in enumerate(self.extras):
            x = torch.relu(v(x))
            if k % 2 == 1:
                sources.append(x)
        for (x, l, c) in zip(sources, self.loc, self.conf):
            loc.append(l(x).permute(0, 2, 3, 1).contiguous())
            conf.append(c(x).permute(0, 2, 3, 1).contiguous())
        loc = torch.cat([o.view(o.size(0), -1) for o in loc], 1)
        conf = torch.cat([o.view(o.size(0), -1) for o in conf], 1)
        if self.phase == "test":
            return self.detect(
                loc.view(loc.size(0), -1, 4),
                self.softmax(conf.view(conf.size(0), -1, self.num_classes)),
                priors,
            )
        return loc.view(loc.size(0), -1, 4), conf.view(conf.size(0), -1, self.num_classes), priors
