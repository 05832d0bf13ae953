# Source: https://github.com/amdegroot/ssd.pytorch/issues/104
# Pitfall: SSD builds nn.Softmax() without dim and applies it to the class confidences.
# Reproduced in our own words, not the original code.
from torch import nn


class SSDHead(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.softmax = nn.Softmax()  # expect: softmax-without-dim

    def forward(self, loc, conf):
        return loc.view(loc.size(0), -1, 4), self.softmax(conf.view(-1, self.num_classes))
