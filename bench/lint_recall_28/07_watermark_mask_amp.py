"""Visible watermark removal: coarse/refine image branches plus a mask branch, trained with AMP."""
import torch
import torch.nn as nn


def l1_relative(pred, target, mask):
    return (torch.abs(pred - target) * mask).sum() / (mask.sum() + 1e-6)


class WatermarkNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.image_head = nn.Conv2d(32, 3, 3, padding=1)
        self.mask_head = nn.Sequential(nn.Conv2d(32, 1, 3, padding=1), nn.Sigmoid())

    def forward(self, x):
        f = self.encoder(x)
        return torch.tanh(self.image_head(f)), self.mask_head(f)


class Losses(nn.Module):
    def __init__(self):
        super().__init__()
        self.masked_l1_loss, self.mask_loss = l1_relative, nn.BCELoss()

    def forward(self, pred_im, pred_mask, target, mask):
        coarse = self.masked_l1_loss(pred_im, target, mask)
        mask_loss = self.mask_loss(pred_mask, mask)  # expect: sigmoid-before-bce
        return coarse, mask_loss


def train(model, loader, epochs=1):
    device = next(model.parameters()).device
    criterion = Losses()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler()
    for _ in range(epochs):
        model.train()
        for image, target, mask in loader:
            image, target, mask = image.to(device), target.to(device), mask.to(device)
            optimizer.zero_grad()
            with torch.cuda.amp.autocast():
                pred_im, pred_mask = model(image)
                coarse, mask_loss = criterion(pred_im, pred_mask, target, mask)
                loss = coarse + mask_loss
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()


if __name__ == "__main__":
    net = WatermarkNet()
    data = [(torch.randn(2, 3, 64, 64), torch.randn(2, 3, 64, 64), torch.randint(0, 2, (2, 1, 64, 64)).float())]
    train(net, data)
