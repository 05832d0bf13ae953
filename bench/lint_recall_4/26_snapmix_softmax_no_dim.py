# Source: https://github.com/Shaoli-Huang/SnapMix/issues/5
# Pitfall: the semantic-percent computation normalises the class activation map with F.softmax
#   without dim, triggering the implicit-dimension deprecation on every mixed batch.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn.functional as F


def class_activation_maps(model, images, labels):
    feats = model.features(images)                      # (B, C, H, W)
    weights = model.classifier.weight[labels]           # (B, C)
    cams = torch.einsum("bchw,bc->bhw", feats, weights)
    cams = F.interpolate(cams.unsqueeze(1), size=images.shape[2:], mode="bilinear", align_corners=False)
    return cams.squeeze(1)


def snapmix_batch(model, images, labels, beta=5.0, prob=1.0):
    if np.random.rand() > prob:
        return images, labels, labels, torch.ones(len(labels)), torch.zeros(len(labels))
    with torch.no_grad():
        cams = class_activation_maps(model, images, labels)
    b, h, w = cams.shape
    flat = F.softmax(cams.view(b, -1))  # expect: softmax-without-dim
    sal = flat.view(b, h, w)
    perm = torch.randperm(b)
    lam = np.random.beta(beta, beta)
    cut_h, cut_w = int(h * np.sqrt(1 - lam)), int(w * np.sqrt(1 - lam))
    y0, x0 = np.random.randint(0, h - cut_h + 1), np.random.randint(0, w - cut_w + 1)
    mixed = images.clone()
    mixed[:, :, y0:y0 + cut_h, x0:x0 + cut_w] = images[perm, :, y0:y0 + cut_h, x0:x0 + cut_w]
    lam_b = sal[perm, y0:y0 + cut_h, x0:x0 + cut_w].sum(dim=(1, 2))
    lam_a = 1 - sal[:, y0:y0 + cut_h, x0:x0 + cut_w].sum(dim=(1, 2))
    return mixed, labels, labels[perm], lam_a, lam_b


def train_step(model, optimizer, images, labels):
    model.train()
    mixed, ya, yb, lam_a, lam_b = snapmix_batch(model, images, labels)
    logits = model(mixed)
    loss_a = F.cross_entropy(logits, ya, reduction="none")
    loss_b = F.cross_entropy(logits, yb, reduction="none")
    loss = (loss_a * lam_a + loss_b * lam_b).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
