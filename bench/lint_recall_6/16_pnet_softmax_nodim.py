# Source: https://github.com/ZhaoJ9014/face.evoLVe/issues/178
# Pitfall: the face-detection stage calls F.softmax(a) with no dim; PyTorch warns and guesses the axis, which is
#   only right by accident for this layout and silently wrong if the tensor rank changes.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProposalNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 10, 3), nn.PReLU(10), nn.MaxPool2d(2, 2, ceil_mode=True),
            nn.Conv2d(10, 16, 3), nn.PReLU(16),
            nn.Conv2d(16, 32, 3), nn.PReLU(32),
        )
        self.conv_cls = nn.Conv2d(32, 2, 1)
        self.conv_box = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        x = self.features(x)
        a = self.conv_cls(x)
        b = self.conv_box(x)
        a = F.softmax(a)  # expect: softmax-without-dim
        return b, a


def box_regression_loss(net, images, target_offsets):
    offsets, _ = net(images)
    return F.smooth_l1_loss(offsets, target_offsets)
