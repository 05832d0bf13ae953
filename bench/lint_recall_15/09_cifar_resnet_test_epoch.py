"""CIFAR-10 training script with an optimizer flag; test() from an older codebase."""
import torch
import torch.nn as nn
import torch.optim as optim
import torchvision
import torchvision.transforms as transforms
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()
transform_test = transforms.Compose([transforms.ToTensor(),
                                     transforms.Normalize((0.4914, 0.4822, 0.4465), (0.2023, 0.1994, 0.2010))])
testset = torchvision.datasets.CIFAR10(root="./data", train=False, download=True, transform=transform_test)
testloader = torch.utils.data.DataLoader(testset, batch_size=100, shuffle=False, num_workers=2)


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def test(testloader, model, criterion, epoch, use_cuda):
    losses, top1 = AverageMeter(), AverageMeter()
    model.eval()
    for batch_idx, (inputs, targets) in enumerate(testloader):
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        inputs, targets = torch.autograd.Variable(inputs, volatile=True), Variable(targets)  # expect: volatile-variable
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        correct = (outputs.argmax(1) == targets).float().mean()
        losses.update(loss.item(), inputs.size(0))
        top1.update(correct.item() * 100.0, inputs.size(0))
    return losses.avg, top1.avg


model = torchvision.models.resnet18(num_classes=10)
if use_cuda:
    model = model.cuda()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
