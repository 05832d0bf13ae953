# Source: https://github.com/pytorch/pytorch/issues/2730
# Pitfall: a learnable per-channel gain is declared with requires_grad=True and then .cuda()'d;
#   the result is an intermediate node, so its .grad is None and the manual update does nothing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def learn_channel_gain(images, targets, steps=100, lr=0.1):
    gain = torch.ones(images.size(1), requires_grad=True).cuda()  # expect: non-leaf-parameter
    images, targets = images.cuda(), targets.cuda()
    for step in range(steps):
        out = images * gain.view(1, -1, 1, 1)
        loss = F.mse_loss(out, targets)
        loss.backward()
        with torch.no_grad():
            if gain.grad is not None:
                gain -= lr * gain.grad
                gain.grad.zero_()
        if step % 10 == 0:
            print(step, loss.item())
    return gain
