"""Style: an image classifier trained with mixed precision, argparse and a validate() function."""
import argparse

import torch
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader


def validate(model, val_loader, device):
    model.eval()
    correct = 0
    for images, labels in val_loader:
        logits = model(images.to(device))  # expect: validation-in-train-mode
        correct += (logits.argmax(1) == labels.to(device)).sum().item()
    model.train()
    return correct / len(val_loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--workers", type=int, default=8)
    a = ap.parse_args()
    device = "cuda"
    model = torchvision.models.resnet50(num_classes=100).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9, weight_decay=5e-4)
    train_loader = DataLoader(torchvision.datasets.CIFAR100("data", train=True), batch_size=256, shuffle=True,
                              num_workers=a.workers, pin_memory=True)
    val_loader = DataLoader(torchvision.datasets.CIFAR100("data", train=False), batch_size=512,
                            num_workers=a.workers, pin_memory=True)
    for epoch in range(90):
        for images, labels in train_loader:
            images, labels = images.to(device, non_blocking=True), labels.to(device, non_blocking=True)
            with torch.autocast(device_type="cuda"):  # expect: unscaled-fp16
                loss = F.cross_entropy(model(images), labels)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        print(epoch, validate(model, val_loader, device))


if __name__ == "__main__":
    main()
