"""Recipe-driven dataloader factory for a detection training run (train / train_extra / val)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class ImageFolderLike(Dataset):
    def __init__(self, n, num_classes=20, size=64):
        self.n = n
        self.num_classes = num_classes
        self.size = size

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        g = torch.Generator().manual_seed(idx)
        img = torch.rand(3, self.size, self.size, generator=g)
        label = int(torch.randint(0, self.num_classes, (1,), generator=g))
        return img, label


RECIPE = {
    "train_dataloader_params": {"batch_size": 16, "num_workers": 0, "drop_last": True},
    "val_dataloader_params": {"batch_size": 32, "num_workers": 0},
}


def build_loaders(recipe):
    train_params = recipe["train_dataloader_params"]
    val_params = recipe["val_dataloader_params"]
    train_loader = DataLoader(ImageFolderLike(512), **train_params)  # expect: train-loader-not-shuffled
    extra_loader = DataLoader(ImageFolderLike(256), batch_size=train_params["batch_size"], drop_last=True)  # expect: train-loader-not-shuffled
    val_loader = DataLoader(ImageFolderLike(128), **val_params)
    return train_loader, extra_loader, val_loader


def train(model, loaders, epochs=1):
    train_loader, extra_loader, val_loader = loaders
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for _ in range(epochs):
        model.train()
        for loader in (train_loader, extra_loader):
            for images, labels in loader:
                optimizer.zero_grad()
                loss = criterion(model(images), labels)
                loss.backward()
                optimizer.step()
        model.eval()
        with torch.no_grad():
            correct = sum((model(x).argmax(1) == y).sum().item() for x, y in val_loader)
        print("val acc", correct / len(val_loader.dataset))


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 20))
    train(net, build_loaders(RECIPE))
