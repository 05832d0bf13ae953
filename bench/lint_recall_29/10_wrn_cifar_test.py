"""Wide-ResNet CIFAR training script: train and test epochs."""
import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable

use_cuda = torch.cuda.is_available()
criterion = nn.CrossEntropyLoss()
best_acc = 0.0


def train(net, trainloader, epoch, lr):
    net.train()
    optimizer = optim.SGD(net.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    train_loss, correct, total = 0.0, 0, 0
    for batch_idx, (inputs, targets) in enumerate(trainloader):
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        correct += outputs.max(1)[1].eq(targets).sum().item()
        total += targets.size(0)
    print("| Epoch #%d  Loss: %.4f Acc@1: %.3f%%" % (epoch, train_loss / (batch_idx + 1),
                                                   100.0 * correct / total))


def test(net, testloader, epoch):
    global best_acc
    net.eval()
    test_loss, correct, total = 0.0, 0, 0
    for batch_idx, (inputs, targets) in enumerate(testloader):
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda()
        inputs, targets = Variable(inputs, volatile=True), Variable(targets)  # expect: volatile-variable, validation-in-train-mode
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        test_loss += loss.item()
        correct += outputs.max(1)[1].eq(targets).sum().item()
        total += targets.size(0)
    acc = 100.0 * correct / total
    print("| Validation Epoch #%d  Loss: %.4f Acc@1: %.2f%%" % (epoch, test_loss / (batch_idx + 1), acc))
    if acc > best_acc:
        best_acc = acc
        torch.save(net.state_dict(), "checkpoint/wrn.pt")
