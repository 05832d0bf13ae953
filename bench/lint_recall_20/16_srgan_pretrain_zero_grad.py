"""PSNR-oriented pre-training of an SRResNet generator with mixed precision."""
import torch
import torch.nn as nn
from torch.cuda import amp
from torch.utils.data import DataLoader


def train_epoch(model, dataloader, criterion, optimizer, scaler, epoch, device, writer=None):
    model.train()
    batches = len(dataloader)
    for index, (lr_img, hr_img) in enumerate(dataloader):
        lr_img = lr_img.to(device, non_blocking=True)
        hr_img = hr_img.to(device, non_blocking=True)

        with amp.autocast():
            sr_img = model(lr_img)
            loss = criterion(sr_img, hr_img)

        scaler.scale(loss).backward()  # expect: gradients-never-cleared
        scaler.step(optimizer)
        scaler.update()

        if writer is not None and index % 10 == 0:
            writer.add_scalar("Train/MSE_Loss", loss.item(), index + epoch * batches)


@torch.no_grad()
def validate(model, dataloader, device):
    model.eval()
    total_psnr = 0.0
    for lr_img, hr_img in dataloader:
        lr_img, hr_img = lr_img.to(device), hr_img.to(device)
        sr_img = model(lr_img).clamp(0.0, 1.0)
        mse = torch.mean((sr_img - hr_img) ** 2, dim=(1, 2, 3))
        total_psnr += (10 * torch.log10(1.0 / mse.clamp(min=1e-10))).mean().item()
    model.train()
    return total_psnr / len(dataloader)


def main(model, train_set, valid_set, epochs=46):
    device = torch.device("cuda:0")
    model = model.to(device)
    train_loader = DataLoader(train_set, batch_size=16, shuffle=True, num_workers=4, pin_memory=True)
    valid_loader = DataLoader(valid_set, batch_size=1, num_workers=4, pin_memory=True)
    criterion = nn.MSELoss().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.999))
    scaler = amp.GradScaler()
    best_psnr = 0.0
    for epoch in range(epochs):
        train_epoch(model, train_loader, criterion, optimizer, scaler, epoch, device)
        psnr = validate(model, valid_loader, device)
        if psnr > best_psnr:
            best_psnr = psnr
            torch.save(model.state_dict(), "srresnet_best.pth")
