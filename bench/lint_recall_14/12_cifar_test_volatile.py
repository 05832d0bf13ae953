"""CIFAR-10 training with a ResNet and a test pass after each epoch."""
import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable


def train_epoch(net, loader, optimizer, criterion, use_cuda):
    net.train()
    train_loss, correct, total = 0.0, 0, 0
    for inputs, targets in loader:
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        correct += outputs.argmax(1).eq(targets).sum().item()
        total += targets.size(0)
    return train_loss / len(loader), 100.0 * correct / total


def test(net, loader, criterion, use_cuda):
    net.eval()
    test_loss, correct, total = 0.0, 0, 0
    for inputs, targets in loader:
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        inputs, targets = Variable(inputs, volatile=True), Variable(targets)  # expect: volatile-variable
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        test_loss += loss.item()
        correct += outputs.argmax(1).eq(targets).sum().item()
        total += targets.size(0)
    return test_loss / len(loader), 100.0 * correct / total


def main(net, trainloader, testloader, epochs=200):
    use_cuda = torch.cuda.is_available()
    if use_cuda:
        net = net.cuda()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    for epoch in range(epochs):
        print(epoch, train_epoch(net, trainloader, optimizer, criterion, use_cuda), test(net, testloader, criterion, use_cuda))
