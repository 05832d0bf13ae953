# Source: https://github.com/milesial/Pytorch-UNet/pull/470
# Pitfall: the segmentation loop clips gradients while they are still multiplied by the
#   GradScaler's scale factor; the clip becomes far stronger than the configured gradient_clipping.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def dice_loss(logits, masks, eps=1e-6):
    probs = logits.softmax(dim=1)
    onehot = F.one_hot(masks, probs.size(1)).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum(dim=(2, 3))
    union = probs.sum(dim=(2, 3)) + onehot.sum(dim=(2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def train_segmenter(net, loader, args):
    device = torch.device("cuda")
    net.to(device)
    optimizer = torch.optim.RMSprop(net.parameters(), lr=args.lr, weight_decay=1e-8, momentum=0.999)
    grad_scaler = torch.cuda.amp.GradScaler(enabled=args.amp)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(1, args.epochs + 1):
        net.train()
        for images, true_masks in loader:
            images = images.to(device, dtype=torch.float32)
            true_masks = true_masks.to(device, dtype=torch.long)
            with torch.autocast(device.type, enabled=args.amp):
                masks_pred = net(images)
                loss = criterion(masks_pred, true_masks) + dice_loss(masks_pred, true_masks)
            optimizer.zero_grad(set_to_none=True)
            grad_scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), args.gradient_clipping)  # expect: clip-before-unscale
            grad_scaler.step(optimizer)
            grad_scaler.update()
        print(f"epoch {epoch} done, last loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--amp", action="store_true")
    parser.add_argument("--gradient-clipping", type=float, default=1.0)
    args = parser.parse_args()
