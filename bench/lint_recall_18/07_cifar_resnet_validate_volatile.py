"""CIFAR-10 ResNet-20 trainer with a top-1 meter and checkpointing (classic script layout)."""
import os
import time

import torch
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.transforms as transforms


class AverageMeter:
    def __init__(self):
        self.val = self.avg = self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def accuracy(output, target):
    pred = output.argmax(dim=1)
    return pred.eq(target).float().mean().mul(100.0)


def validate(val_loader, model, criterion, print_freq=50):
    batch_time, losses, top1 = AverageMeter(), AverageMeter(), AverageMeter()
    model.eval()
    end = time.time()
    for i, (inp, target) in enumerate(val_loader):
        target = target.cuda()
        input_var = torch.autograd.Variable(inp, volatile=True).cuda()  # expect: volatile-variable
        output = model(input_var)
        loss = criterion(output, target)
        prec1 = accuracy(output.data, target)
        losses.update(loss.item(), inp.size(0))
        top1.update(prec1.item(), inp.size(0))
        batch_time.update(time.time() - end)
        end = time.time()
        if i % print_freq == 0:
            print(f"Test: [{i}/{len(val_loader)}] Loss {losses.avg:.4f} Prec@1 {top1.avg:.3f}")
    return top1.avg


def train(train_loader, model, criterion, optimizer):
    model.train()
    for inp, target in train_loader:
        inp, target = inp.cuda(), target.cuda()
        loss = criterion(model(inp), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(model, save_dir="save_resnet20", epochs=200):
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    train_tf = transforms.Compose([
        transforms.RandomHorizontalFlip(), transforms.RandomCrop(32, 4), transforms.ToTensor(), normalize,
    ])
    val_tf = transforms.Compose([transforms.ToTensor(), normalize])
    train_loader = torch.utils.data.DataLoader(
        datasets.CIFAR10(root="./data", train=True, transform=train_tf, download=True),
        batch_size=128, shuffle=True, num_workers=4, pin_memory=True)
    val_loader = torch.utils.data.DataLoader(
        datasets.CIFAR10(root="./data", train=False, transform=val_tf),
        batch_size=128, shuffle=False, num_workers=4, pin_memory=True)
    model = model.cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[100, 150])
    best = 0.0
    os.makedirs(save_dir, exist_ok=True)
    for epoch in range(epochs):
        train(train_loader, model, criterion, optimizer)
        scheduler.step()
        prec1 = validate(val_loader, model, criterion)
        if prec1 > best:
            best = prec1
            torch.save({"state_dict": model.state_dict(), "best_prec1": best},
                       os.path.join(save_dir, "model.th"))
