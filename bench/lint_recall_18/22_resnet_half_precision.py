"""CIFAR-10 ResNet trainer with an optional --half flag for 16-bit training."""
import argparse

import torch
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.transforms as transforms


def get_args():
    parser = argparse.ArgumentParser(description="ResNets for CIFAR10")
    parser.add_argument("--epochs", default=200, type=int)
    parser.add_argument("--lr", default=0.1, type=float)
    parser.add_argument("--half", dest="half", action="store_true", help="use half-precision(16-bit)")
    return parser.parse_args()


def train(loader, model, criterion, optimizer, half):
    model.train()
    for inp, target in loader:
        inp, target = inp.cuda(), target.cuda()
        if half:
            inp = inp.half()
        output = model(inp)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def validate(loader, model, half):
    model.eval()
    correct = total = 0
    for inp, target in loader:
        inp, target = inp.cuda(), target.cuda()
        if half:
            inp = inp.half()
        correct += (model(inp).argmax(dim=1) == target).sum().item()
        total += target.numel()
    return 100.0 * correct / total


def main(model):
    args = get_args()
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    train_loader = torch.utils.data.DataLoader(
        datasets.CIFAR10(root="./data", train=True, download=True, transform=transforms.Compose([
            transforms.RandomHorizontalFlip(), transforms.RandomCrop(32, 4), transforms.ToTensor(), normalize])),
        batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
    val_loader = torch.utils.data.DataLoader(
        datasets.CIFAR10(root="./data", train=False, transform=transforms.Compose([transforms.ToTensor(), normalize])),
        batch_size=128, shuffle=False, num_workers=4, pin_memory=True)

    model = model.cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    if args.half:
        model.half()  # expect: unscaled-fp16
        criterion.half()
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[100, 150])
    for epoch in range(args.epochs):
        train(train_loader, model, criterion, optimizer, args.half)
        scheduler.step()
        print(f"epoch {epoch}: prec@1 {validate(val_loader, model, args.half):.2f}")
