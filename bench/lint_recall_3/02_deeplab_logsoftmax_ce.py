# Source: https://github.com/speedinghzl/Pytorch-Deeplab/issues/2
# Pitfall: The segmentation loss helper runs log_softmax on the prediction and then calls
# F.cross_entropy, which computes log_softmax itself, so the softmax is applied twice.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def seg_loss(logits, label_map, ignore=255):
    log_probs = F.log_softmax(logits, dim=1)
    return F.cross_entropy(log_probs, label_map, ignore_index=ignore)  # expect: softmax-before-cross-entropy


def train_segmenter(net, loader, optimiser, device, n_iters):
    net.train()
    it = 0
    while it < n_iters:
        for images, masks in loader:
            images = images.to(device)
            masks = masks.long().to(device)
            optimiser.zero_grad()
            out = net(images)
            out = F.interpolate(out, size=masks.shape[-2:], mode="bilinear", align_corners=True)
            loss = seg_loss(out, masks)
            loss.backward()
            optimiser.step()
            it += 1
            if it >= n_iters:
                break
    return net
