"""Generic image-classification driver: one forward pass over a loader."""
import time

import torch
import torch.nn as nn
from torch.autograd import Variable


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


def forward(data_loader, model, criterion, epoch=0, training=True, optimizer=None, dtype="torch.cuda.FloatTensor"):
    losses, top1 = AverageMeter(), AverageMeter()
    end = time.time()
    for i, (inputs, target) in enumerate(data_loader):
        target = target.cuda()
        input_var = Variable(inputs.type(dtype), volatile=not training)  # expect: volatile-variable, validation-in-train-mode
        target_var = Variable(target)
        output = model(input_var)
        loss = criterion(output, target_var)
        prec1, = accuracy(output.detach(), target)
        losses.update(loss.item(), inputs.size(0))
        top1.update(prec1.item(), inputs.size(0))
        if training:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(f"epoch {epoch} {'train' if training else 'val'} loss {losses.avg:.3f} "
          f"prec@1 {top1.avg:.2f} ({time.time() - end:.1f}s)")
    return losses.avg, top1.avg


def validate(data_loader, model, criterion, epoch):
    model.eval()
    return forward(data_loader, model, criterion, epoch, training=False)


def train(data_loader, model, criterion, epoch, optimizer):
    model.train()
    return forward(data_loader, model, criterion, epoch, training=True, optimizer=optimizer)


if __name__ == "__main__":
    net = nn.Linear(10, 3).cuda()
    print(net)
