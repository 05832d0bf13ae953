# Source: https://github.com/awslabs/Renate/issues/251
# Pitfall: DataLoaders built without workers while the dataset does image augmentation per
# sample: the GPU waits on the main process.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

train_tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(),
                               transforms.ColorJitter(0.4, 0.4, 0.4), transforms.ToTensor()])


def fit(model, data_dir, epochs=10):
    device = torch.device("cuda")
    model = model.to(device)
    ds = datasets.ImageFolder(data_dir, transform=train_tf)
    loader = DataLoader(ds, batch_size=128, shuffle=True, pin_memory=True)  # expect: dataloader-blocking
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
