# Source: https://github.com/kuangliu/pytorch-cifar/commit/b1cf0f1d5c22ad42640e0d269ba0041ca4d29a21
# Pitfall: the test pass switches the network to eval() but runs it without torch.no_grad(), so autograd
#   records a graph for every test batch, wasting memory and time during each evaluation.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.optim as optim

device = "cuda" if torch.cuda.is_available() else "cpu"
best_acc = 0.0


def train_one_epoch(net, loader, criterion, optimizer):
    net.train()
    seen = hit = 0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        hit += outputs.argmax(1).eq(targets).sum().item()
        seen += targets.size(0)
    return hit / seen


def test(net, loader, criterion, epoch):
    global best_acc
    net.eval()
    test_loss, correct, total = 0.0, 0, 0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        outputs = net(inputs)  # expect: validation-in-train-mode
        loss = criterion(outputs, targets)
        test_loss += loss.item()
        correct += outputs.max(1)[1].eq(targets).sum().item()
        total += targets.size(0)
    acc = 100.0 * correct / total
    if acc > best_acc:
        torch.save({"net": net.state_dict(), "acc": acc, "epoch": epoch}, "./checkpoint/ckpt.pth")
        best_acc = acc
    return acc


def main(net, trainloader, testloader, epochs=200):
    net = net.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    scheduler = optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    for epoch in range(epochs):
        train_one_epoch(net, trainloader, criterion, optimizer)
        test(net, testloader, criterion, epoch)
        scheduler.step()
