"""CIFAR-100 training with warm-up and gradient accumulation over several mini-batches."""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim
from torch.optim.lr_scheduler import LRScheduler


class WarmUpLR(LRScheduler):
    def __init__(self, optimizer, total_iters, last_epoch=-1):
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base_lr * self.last_epoch / (self.total_iters + 1e-8) for base_lr in self.base_lrs]


def train(epoch, net, loader, optimizer, loss_function, warmup_scheduler, args):
    net.train()
    running = 0.0
    for batch_index, (images, labels) in enumerate(loader):
        if args.gpu:
            images, labels = images.cuda(), labels.cuda()

        outputs = net(images)
        loss = loss_function(outputs, labels)  # expect: accumulation-not-averaged
        loss.backward()
        running += loss.item()

        if (batch_index + 1) % args.acc_b != 0:
            continue

        optimizer.step()
        optimizer.zero_grad()
        if epoch <= args.warm:
            warmup_scheduler.step()

        if (batch_index + 1) % (50 * args.acc_b) == 0:
            print(f"Training Epoch {epoch} [{batch_index + 1}/{len(loader)}] loss {running / (batch_index + 1):.4f}")


@torch.no_grad()
def eval_training(net, loader, loss_function, args):
    net.eval()
    test_loss, correct = 0.0, 0
    for images, labels in loader:
        if args.gpu:
            images, labels = images.cuda(), labels.cuda()
        outputs = net(images)
        test_loss += loss_function(outputs, labels).item()
        correct += outputs.argmax(dim=1).eq(labels).sum().item()
    return test_loss / len(loader), correct / len(loader.dataset)


def main(net, train_loader, test_loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("-gpu", action="store_true", default=False)
    parser.add_argument("-b", type=int, default=32, help="batch size for dataloader")
    parser.add_argument("-acc_b", type=int, default=4, help="number of batches to accumulate")
    parser.add_argument("-warm", type=int, default=1, help="warm up training phase")
    parser.add_argument("-lr", type=float, default=0.1)
    args = parser.parse_args()

    if args.gpu:
        net = net.cuda()
    loss_function = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    train_scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[60, 120, 160], gamma=0.2)
    warmup_scheduler = WarmUpLR(optimizer, len(train_loader) * args.warm // args.acc_b)
    for epoch in range(1, 201):
        train(epoch, net, train_loader, optimizer, loss_function, warmup_scheduler, args)
        if epoch > args.warm:
            train_scheduler.step()
        print(eval_training(net, test_loader, loss_function, args))
