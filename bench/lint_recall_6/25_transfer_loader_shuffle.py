# Source: https://github.com/jindongwang/transferlearning/pull/437
# Pitfall: load_data accepts a shuffle argument but never forwards it, so the source-domain training loader
#   falls back to DataLoader's default shuffle=False and every epoch sees the images in folder order.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def load_data(root, batch_size, shuffle=True, train=True, num_workers=4):
    tfm = [transforms.Resize((256, 256))]
    if train:
        tfm += [transforms.RandomCrop(224), transforms.RandomHorizontalFlip()]
    else:
        tfm += [transforms.CenterCrop(224)]
    tfm += [transforms.ToTensor(), transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])]
    data = datasets.ImageFolder(root=root, transform=transforms.Compose(tfm))
    loader = DataLoader(data, batch_size=batch_size, num_workers=num_workers, pin_memory=True, drop_last=train)  # expect: train-loader-not-shuffled
    return loader, len(data.classes)


def build_loaders(src_dir, tgt_dir, batch_size=32):
    source_loader, n_class = load_data(src_dir, batch_size, shuffle=True, train=True)
    target_test_loader, _ = load_data(tgt_dir, batch_size, shuffle=False, train=False)
    return source_loader, target_test_loader, n_class
