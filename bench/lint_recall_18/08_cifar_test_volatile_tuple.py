"""CIFAR-100 classification with progress bar style logging; test() returns loss and top-1/top-5."""
import torch
import torch.nn as nn
import torch.optim as optim


class Meter:
    def __init__(self):
        self.total, self.n = 0.0, 0

    def update(self, v, k):
        self.total += v * k
        self.n += k

    @property
    def avg(self):
        return self.total / max(self.n, 1)


def topk_acc(output, target, topk=(1, 5)):
    maxk = max(topk)
    _, pred = output.topk(maxk, 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum().item() * 100.0 / target.size(0) for k in topk]


def train(trainloader, model, criterion, optimizer, use_cuda):
    model.train()
    losses = Meter()
    for inputs, targets in trainloader:
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.item(), inputs.size(0))
    return losses.avg


def test(testloader, model, criterion, use_cuda):
    model.eval()
    losses, top1, top5 = Meter(), Meter(), Meter()
    for inputs, targets in testloader:
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        inputs, targets = torch.autograd.Variable(inputs, volatile=True), torch.autograd.Variable(targets)  # expect: volatile-variable
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        p1, p5 = topk_acc(outputs.data, targets.data)
        losses.update(loss.item(), inputs.size(0))
        top1.update(p1, inputs.size(0))
        top5.update(p5, inputs.size(0))
    return losses.avg, top1.avg, top5.avg


def adjust_lr(optimizer, epoch, base_lr, schedule=(150, 225), gamma=0.1):
    lr = base_lr * (gamma ** sum(epoch >= s for s in schedule))
    for group in optimizer.param_groups:
        group["lr"] = lr
    return lr


def main(model, trainloader, testloader, epochs=300, lr=0.1):
    use_cuda = torch.cuda.is_available()
    if use_cuda:
        model = nn.DataParallel(model).cuda()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    best_acc = 0.0
    for epoch in range(epochs):
        adjust_lr(optimizer, epoch, lr)
        train_loss = train(trainloader, model, criterion, optimizer, use_cuda)
        test_loss, acc1, _ = test(testloader, model, criterion, use_cuda)
        best_acc = max(best_acc, acc1)
        print(f"{epoch}: train {train_loss:.3f} test {test_loss:.3f} acc {acc1:.2f} best {best_acc:.2f}")
