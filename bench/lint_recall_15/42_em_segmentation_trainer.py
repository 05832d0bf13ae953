"""Default trainer of a microscopy segmentation toolkit: lazily loaded HDF5 patches, UNet, dice loss."""
import h5py
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class LazyH5Dataset(Dataset):
    def __init__(self, path, raw_key, label_key, patch_shape, n_samples=500):
        self.path, self.raw_key, self.label_key = path, raw_key, label_key
        self.patch_shape = patch_shape
        self.n_samples = n_samples
        with h5py.File(path, "r") as f:
            self.shape = f[raw_key].shape

    def __len__(self):
        return self.n_samples

    def __getitem__(self, index):
        start = [np.random.randint(0, s - p + 1) for s, p in zip(self.shape, self.patch_shape)]
        bb = tuple(slice(st, st + p) for st, p in zip(start, self.patch_shape))
        with h5py.File(self.path, "r") as f:
            raw = f[self.raw_key][bb].astype("float32")
            labels = (f[self.label_key][bb] > 0).astype("float32")
        raw = (raw - raw.mean()) / (raw.std() + 1e-7)
        return torch.from_numpy(raw[None]), torch.from_numpy(labels[None])


def dice_loss(pred, target, eps=1e-6):
    inter = (pred * target).sum()
    return 1 - 2 * inter / (pred.sum() + target.sum()).clamp(min=eps)


def train(model: nn.Module, path, n_iterations=10000, device="cuda"):
    ds = LazyH5Dataset(path, "raw", "labels", (256, 256))
    loader = DataLoader(ds, batch_size=8, shuffle=True, num_workers=4)
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    it = 0
    while it < n_iterations:
        model.train()
        for x, y in loader:
            x = x.to(device, non_blocking=True)  # expect: dataloader-blocking
            y = y.to(device, non_blocking=True)
            optimizer.zero_grad()
            loss = dice_loss(torch.sigmoid(model(x)), y)
            loss.backward()
            optimizer.step()
            it += 1
            if it >= n_iterations:
                break
