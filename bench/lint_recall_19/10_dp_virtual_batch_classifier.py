"""CIFAR-10 classifier trained with a large logical batch built from several
physical micro-batches ("virtual steps"), e.g. for differentially private SGD."""
import numpy as np
import torch
import torch.nn as nn
import torchvision
import torchvision.transforms as T

BATCH_SIZE = 512
MAX_PHYSICAL_BATCH_SIZE = 128
VIRTUAL_BATCH_RATE = BATCH_SIZE // MAX_PHYSICAL_BATCH_SIZE


def accuracy(preds, labels):
    return (preds == labels).mean()


def train(model, train_loader, optimizer, epoch, device):
    model.train()
    criterion = nn.CrossEntropyLoss()
    losses, top1_acc = [], []
    for i, (images, target) in enumerate(train_loader):
        optimizer.zero_grad()  # expect: grad-cleared-before-step
        images, target = images.to(device), target.to(device)
        output = model(images)
        loss = criterion(output, target) / VIRTUAL_BATCH_RATE
        preds = np.argmax(output.detach().cpu().numpy(), axis=1)
        top1_acc.append(accuracy(preds, target.cpu().numpy()))
        losses.append(loss.item() * VIRTUAL_BATCH_RATE)
        loss.backward()
        if ((i + 1) % VIRTUAL_BATCH_RATE == 0) or ((i + 1) == len(train_loader)):
            optimizer.step()
    print(f"epoch {epoch}: loss {np.mean(losses):.4f} acc {np.mean(top1_acc) * 100:.2f}")


def test(model, test_loader, device):
    model.eval()
    top1 = []
    with torch.no_grad():
        for images, target in test_loader:
            preds = model(images.to(device)).argmax(dim=1).cpu().numpy()
            top1.append(accuracy(preds, target.numpy()))
    return float(np.mean(top1))


def main(epochs=20):
    device = torch.device("cuda")
    normalize = T.Normalize((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616))
    train_set = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=T.Compose([T.ToTensor(), normalize]))
    test_set = torchvision.datasets.CIFAR10("data", train=False, download=True, transform=T.Compose([T.ToTensor(), normalize]))
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=MAX_PHYSICAL_BATCH_SIZE, shuffle=True, num_workers=4)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=256, shuffle=False, num_workers=4)
    model = torchvision.models.resnet18(num_classes=10).to(device)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        train(model, train_loader, optimizer, epoch, device)
        print(f"test acc {test(model, test_loader, device):.4f}")
