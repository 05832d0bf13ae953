"""ImageNet example: top-1 validation pass written against the pre-0.4 Variable API."""
import torch
import torch.nn as nn
from torch.autograd import Variable


def accuracy(output, target, topk=(1,)):
    maxk = max(topk)
    _, pred = output.topk(maxk, 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum().item() * 100.0 / target.size(0) for k in topk]


def validate(val_loader, model, criterion=None):
    criterion = criterion or nn.CrossEntropyLoss().cuda()
    model.eval()
    top1_sum, n = 0.0, 0
    for i, (inp, target) in enumerate(val_loader):
        target = target.cuda()
        input_var = Variable(inp.cuda(), volatile=True)  # expect: volatile-variable
        target_var = Variable(target, volatile=True)  # expect: volatile-variable
        output = model(input_var)
        loss = criterion(output, target_var)
        prec1 = accuracy(output.data, target, topk=(1,))[0]
        top1_sum += prec1 * inp.size(0)
        n += inp.size(0)
        if i % 100 == 0:
            print(f"[{i}/{len(val_loader)}] loss {loss.item():.4f} prec@1 {prec1:.2f}")
    model.train()
    return top1_sum / max(n, 1)
