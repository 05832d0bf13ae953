# Source: https://github.com/WuJie1010/Facial-Expression-Recognition.Pytorch/issues/87
# Pitfall: The evaluation loop wraps the test images in Variable(inputs, volatile=True); the flag was removed in PyTorch 0.4 and now does nothing, so autograd records a graph for every test batch (more memory, slower) unless torch.no_grad() is used, which this loop does not.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


def test_epoch(net, test_loader, use_cuda=True):
    criterion = nn.CrossEntropyLoss()
    net.eval()
    test_loss = 0.0
    correct = 0
    total = 0
    for inputs, targets in test_loader:
        bs, ncrops, c, h, w = inputs.shape
        inputs = inputs.view(-1, c, h, w)
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        inputs, targets = Variable(inputs, volatile=True), Variable(targets)  # expect: volatile-variable
        outputs = net(inputs)  # expect: validation-in-train-mode
        outputs_avg = outputs.view(bs, ncrops, -1).mean(1)
        loss = criterion(outputs_avg, targets)
        test_loss += loss.item()
        predicted = outputs_avg.argmax(dim=1)
        total += targets.size(0)
        correct += predicted.eq(targets).sum().item()
    net.train()
    return 100.0 * correct / total, test_loss / len(test_loader)
