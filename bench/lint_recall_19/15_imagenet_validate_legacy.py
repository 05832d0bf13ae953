"""ImageNet training script (ResNet / VGG) with a separate validate() pass."""
import time

import torch
import torch.nn as nn
import torch.utils.data
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def accuracy(output, target, topk=(1,)):
    maxk = max(topk)
    _, pred = output.topk(maxk, 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum(0) * (100.0 / target.size(0)) for k in topk]


def train(loader, model, criterion, optimizer):
    model.train()
    losses = AverageMeter()
    for inputs, targets in loader:
        inputs, targets = inputs.cuda(), targets.cuda(non_blocking=True)
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        losses.update(loss.item(), inputs.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses.avg


def validate(loader, model, criterion):
    model.eval()
    losses, top1 = AverageMeter(), AverageMeter()
    end = time.time()
    for inputs, targets in loader:
        targets = targets.cuda(non_blocking=True)
        inputs, targets = torch.autograd.Variable(inputs.cuda(), volatile=True), torch.autograd.Variable(targets)  # expect: volatile-variable
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        prec1 = accuracy(outputs.data, targets.data, topk=(1,))[0]
        losses.update(loss.item(), inputs.size(0))
        top1.update(prec1.item(), inputs.size(0))
    print(f"validation took {time.time() - end:.1f}s")
    return losses.avg, top1.avg


def main(data_root, arch="resnet18", epochs=90):
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    train_set = datasets.ImageFolder(f"{data_root}/train", transforms.Compose([
        transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(), normalize]))
    val_set = datasets.ImageFolder(f"{data_root}/val", transforms.Compose([
        transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(), normalize]))
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=256, shuffle=True, num_workers=8, pin_memory=True)
    val_loader = torch.utils.data.DataLoader(val_set, batch_size=200, shuffle=False, num_workers=8, pin_memory=True)

    model = torch.nn.DataParallel(models.__dict__[arch]()).cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
    for epoch in range(epochs):
        train_loss = train(train_loader, model, criterion, optimizer)
        val_loss, val_top1 = validate(val_loader, model, criterion)
        scheduler.step()
        print(f"epoch {epoch}: train {train_loss:.3f} val {val_loss:.3f} top1 {val_top1:.2f}")
