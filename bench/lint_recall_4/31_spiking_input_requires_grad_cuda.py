# Source: https://github.com/fangwei123456/spikingjelly/issues/280
# Pitfall: the input is created with requires_grad=True on the CPU and then moved with .cuda();
#   the moved tensor is not a leaf, so x.grad stays None after backward (maintainer cites the docs).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class StraightThrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.save_for_backward(x)
        ctx.alpha = alpha
        return (x >= 0).to(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        mask = (x.abs() <= ctx.alpha).to(x)
        return grad_output * mask, None


class IFNeuron(nn.Module):
    def __init__(self, threshold=1.0, alpha=1.0):
        super().__init__()
        self.threshold = threshold
        self.alpha = alpha

    def forward(self, x):
        return StraightThrough.apply(x - self.threshold, self.alpha)


def input_saliency(device="cuda"):
    neuron = IFNeuron().to(device)
    x = torch.rand([4, 8], requires_grad=True).cuda()  # expect: non-leaf-parameter
    spikes = neuron(x)
    spikes.sum().backward()
    return x.grad
