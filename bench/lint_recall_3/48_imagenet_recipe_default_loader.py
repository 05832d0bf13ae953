# Source: https://github.com/Deci-AI/super-gradients/issues/416
# Pitfall: The ImageNet training loader is created with only a batch size, so shuffle stays False and a
# SequentialSampler feeds the network one class at a time, which throws it out of its minimum.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def imagenet_loaders(root, batch_size=196, workers=8):
    train_tf = transforms.Compose([
        transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
    ])
    val_tf = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor()])
    train_set = datasets.ImageFolder(f"{root}/train", train_tf)
    val_set = datasets.ImageFolder(f"{root}/val", val_tf)
    train_loader = DataLoader(train_set, batch_size=batch_size, num_workers=workers, pin_memory=True)  # expect: train-loader-not-shuffled
    val_loader = DataLoader(val_set, batch_size=batch_size, num_workers=workers, pin_memory=True)
    return train_loader, val_loader


def one_epoch(model, loader, optimizer, device):
    criterion = nn.CrossEntropyLoss()
    model.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
