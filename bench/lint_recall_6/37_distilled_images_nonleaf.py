# Source: https://github.com/pytorch/pytorch/issues/140469
# Pitfall: the synthetic images for dataset distillation are created with requires_grad=True and immediately
#   scaled by 0.01; the stored tensor is the product, not a leaf, so the image optimizer raises / cannot learn it.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def init_synthetic(num_classes, ipc, channel, im_size, device):
    image_syn = torch.randn(num_classes * ipc, channel, im_size[0], im_size[1], requires_grad=True, device=device) * 0.01  # expect: non-leaf-parameter
    label_syn = torch.arange(num_classes, device=device).repeat_interleave(ipc)
    return image_syn, label_syn


def match_gradients(net, image_syn, label_syn, real_x, real_y):
    params = [p for p in net.parameters() if p.requires_grad]
    g_real = torch.autograd.grad(F.cross_entropy(net(real_x), real_y), params)
    g_real = [g.detach() for g in g_real]
    g_syn = torch.autograd.grad(F.cross_entropy(net(image_syn), label_syn), params, create_graph=True)
    return sum(1 - F.cosine_similarity(a.flatten(), b.flatten(), dim=0) for a, b in zip(g_syn, g_real))


def distill(net, real_batches, num_classes=10, ipc=1, device="cpu", lr_img=0.1):
    image_syn, label_syn = init_synthetic(num_classes, ipc, 3, (32, 32), device)
    optimizer_img = torch.optim.SGD([image_syn], lr=lr_img, momentum=0.5)
    for real_x, real_y in real_batches:
        loss = match_gradients(net, image_syn, label_syn, real_x, real_y)
        optimizer_img.zero_grad()
        loss.backward()
        optimizer_img.step()
    return image_syn.detach()
