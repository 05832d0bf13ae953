# Source: https://github.com/avBuffer/UNet3plus_pth/issues/23
# Pitfall: The segmentation network returns F.sigmoid(d1) and train.py feeds it to BCEWithLogitsLoss, so the sigmoid is applied twice and the loss stops decreasing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet3Plus(nn.Module):
    def __init__(self, in_ch=3, n_classes=1):
        super().__init__()
        self.enc = nn.Conv2d(in_ch, 32, 3, padding=1)
        self.dec = nn.Conv2d(32, n_classes, 3, padding=1)

    def forward(self, x):
        d1 = self.dec(F.relu(self.enc(x)))
        return F.sigmoid(d1)


def train_net(net, train_loader, device, epochs=5):
    net.to(device)
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-4, momentum=0.9)
    for epoch in range(epochs):
        net.train()
        for imgs, true_masks in train_loader:
            imgs = imgs.to(device)
            true_masks = true_masks.to(device)
            masks_pred = net(imgs)
            loss = criterion(masks_pred, true_masks)  # expect: sigmoid-before-bce-with-logits
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
