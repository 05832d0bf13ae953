# Source: https://github.com/pytorch/benchmark/pull/873
# Pitfall: the segmentation training step runs the scaled backward pass inside the autocast
#   block; the AMP recipe autocasts only the forward pass and the loss, not backward().
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
    )


class TinyUNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=2):
        super().__init__()
        self.inc = double_conv(n_channels, 32)
        self.down = double_conv(32, 64)
        self.up = nn.ConvTranspose2d(64, 32, 2, stride=2)
        self.dec = double_conv(64, 32)
        self.outc = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(F.max_pool2d(x1, 2))
        y = self.dec(torch.cat([self.up(x2), x1], dim=1))
        return self.outc(y)


def train_step(model, images, true_masks, optimizer, grad_scaler, amp=True):
    model.train()
    optimizer.zero_grad(set_to_none=True)
    with torch.cuda.amp.autocast(enabled=amp):
        masks_pred = model(images)
        loss = F.cross_entropy(masks_pred, true_masks)
        grad_scaler.scale(loss).backward()  # expect: backward-inside-autocast
    grad_scaler.step(optimizer)
    grad_scaler.update()
    return loss.item()


if __name__ == "__main__":
    device = torch.device("cuda")
    net = TinyUNet().to(device=device, memory_format=torch.channels_last)
    optimizer = torch.optim.RMSprop(net.parameters(), lr=1e-5, weight_decay=1e-8, momentum=0.9)
    scaler = torch.cuda.amp.GradScaler(enabled=True)
    for it in range(20):
        imgs = torch.randn(4, 3, 128, 128, device=device).to(memory_format=torch.channels_last)
        masks = torch.randint(0, 2, (4, 128, 128), device=device)
        print(it, train_step(net, imgs, masks, optimizer, scaler))
