# Source: https://github.com/hustzxd/EfficientPyTorch/issues/1
# Pitfall: the optimizer is created from model.parameters() before every Conv2d is swapped for a
#   sparse/quantised replacement, so the new layers' weights are never in the optimizer.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
import torchvision


class QuantSparseConv2d(nn.Conv2d):
    def __init__(self, conv, nbits_w=4, sparsity=0.5):
        super().__init__(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                         conv.padding, conv.dilation, conv.groups, conv.bias is not None)
        self.weight.data.copy_(conv.weight.data)
        if conv.bias is not None:
            self.bias.data.copy_(conv.bias.data)
        self.nbits_w = nbits_w
        self.sparsity = sparsity

    def forward(self, x):
        w = self.weight
        thresh = w.abs().flatten().kthvalue(max(1, int(self.sparsity * w.numel()))).values
        w = w * (w.abs() > thresh)
        scale = w.abs().max().clamp(min=1e-8) / (2 ** (self.nbits_w - 1) - 1)
        w = (torch.round(w / scale) * scale - w).detach() + w
        return self._conv_forward(x, w, self.bias)


def replace_conv_recursively(module, **kw):
    for name, child in module.named_children():
        if isinstance(child, nn.Conv2d):
            setattr(module, name, QuantSparseConv2d(child, **kw))
        else:
            replace_conv_recursively(child, **kw)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--qw", type=int, default=4)
    parser.add_argument("--sparsity", type=float, default=0.5)
    args = parser.parse_args()

    model = torchvision.models.resnet18(weights=None)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    replace_conv_recursively(model, nbits_w=args.qw, sparsity=args.sparsity)  # expect: optimizer-misses-params
    return model, criterion, optimizer
