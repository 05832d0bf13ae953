"""PASCAL VOC 2007 multi-label classification on top of a self-supervised backbone (linear/fc6-8 probe)."""
import torch
import torch.nn as nn
import torchvision.transforms as transforms
from torch.utils.data import DataLoader


def train(loader, model, optimizer, criterion, it, total_iterations, stepsize):
    model.train()
    for inp, target in loader:
        if it >= total_iterations:
            return it
        if it % stepsize == 0 and it > 0:
            for group in optimizer.param_groups:
                group["lr"] *= 0.5
        inp, target = inp.cuda(non_blocking=True), target.float().cuda(non_blocking=True)
        output = model(inp)
        mask = (target == 255)
        loss = torch.sum(criterion(output, target.clamp(0, 1)).masked_fill_(mask, 0)) / target.size(0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        it += 1
        if it % 100 == 0:
            print(f"iter {it}: loss {loss.item():.4f}")
    return it


def run(model, dataset_cls, vocdir, split="train", nit=80000, lr=0.003, wd=1e-6, stepsize=5000):
    model.top_layer = nn.Linear(model.top_layer.weight.size(1), 20)
    model.cuda()
    normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    dataset = dataset_cls(vocdir, split=split, transform=transforms.Compose([
        transforms.RandomHorizontalFlip(),
        transforms.RandomResizedCrop(224, scale=(0.1, 0.5), ratio=(1, 1)),
        transforms.ToTensor(),
        normalize,
    ]))
    loader = DataLoader(dataset, batch_size=16, shuffle=False, num_workers=24, pin_memory=True)  # expect: train-loader-not-shuffled
    for m in model.classifier.modules():
        if isinstance(m, nn.Linear):
            m.weight.data.normal_(0, 0.01)
            m.bias.data.fill_(0.1)
    optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()),
                                lr=lr, momentum=0.9, weight_decay=wd)
    criterion = nn.BCEWithLogitsLoss(reduction="none")
    it = 0
    while it < nit:
        it = train(loader, model, optimizer, criterion, it, nit, stepsize)
    return model
