# Source: https://github.com/Abe404/segmentation_of_roots_in_soil_with_unet/pull/4
# Pitfall: The epoch loop advances the learning-rate scheduler at the top of each epoch, before any
# optimizer.step() has run, so the schedule is shifted by one step (off-by-one).
# Reproduced in our own words, not the original code.
import torch
from torch.optim.lr_scheduler import ExponentialLR


def dice_bce(pred_logits, mask):
    bce = torch.nn.functional.binary_cross_entropy_with_logits(pred_logits, mask)
    probs = torch.sigmoid(pred_logits)
    inter = (probs * mask).sum()
    dice = 1 - (2 * inter + 1) / (probs.sum() + mask.sum() + 1)
    return bce + dice


def train_root_unet(unet, tile_loader, epochs, device):
    optimizer = torch.optim.SGD(unet.parameters(), lr=0.01, momentum=0.99, nesterov=True)
    scheduler = ExponentialLR(optimizer, gamma=0.985)
    for epoch in range(epochs):
        scheduler.step()  # expect: scheduler-before-optimizer
        unet.train()
        epoch_loss = 0.0
        for tiles, masks in tile_loader:
            tiles, masks = tiles.to(device), masks.to(device)
            optimizer.zero_grad()
            loss = dice_bce(unet(tiles), masks)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(epoch, epoch_loss / len(tile_loader))
