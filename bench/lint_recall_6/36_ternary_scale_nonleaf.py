# Source: https://github.com/vinsis/ternary-quantization/issues/4
# Pitfall: the per-layer scaling factors are created with requires_grad=True and then moved with .to(device);
#   the moved copies are not leaf tensors, so the optimizer refuses them (or they never get a .grad).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def ternarize(w, scale, threshold=0.05):
    delta = threshold * w.abs().max()
    pos = (w > delta).float()
    neg = (w < -delta).float()
    return scale[0] * pos - scale[1] * neg


def build(model):
    weights_to_be_quantized = [m.weight for m in model.modules() if isinstance(m, nn.Conv2d)]
    scaling_factors = [torch.ones(2, requires_grad=True).to(device) for _ in weights_to_be_quantized]  # expect: non-leaf-parameter
    optimizer_w = torch.optim.Adam(model.parameters(), lr=1e-3)
    optimizer_s = torch.optim.Adam(scaling_factors, lr=1e-4)
    return weights_to_be_quantized, scaling_factors, optimizer_w, optimizer_s


def quantized_forward(model, x, weights, scales):
    h = x
    for w, s in zip(weights, scales):
        h = F.relu(F.conv2d(h, ternarize(w, s), padding=1))
    return F.adaptive_avg_pool2d(h, 1).flatten(1)
