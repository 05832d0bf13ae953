# Source: https://github.com/ultralytics/yolov5/issues/2582
# Pitfall: create_dataloader only gets shuffling from the DistributedSampler; in single-GPU training the
#          sampler is None and no shuffle flag is passed, so batches come in the same fixed file order every epoch.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FolderBoxes(Dataset):
    def __init__(self, n=400, img=64):
        self.n, self.img = n, img

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.rand(3, self.img, self.img, generator=g), torch.rand(5, generator=g)


def create_dataloader(dataset, batch_size, rank=-1, workers=4):
    sampler = torch.utils.data.distributed.DistributedSampler(dataset) if rank != -1 else None
    return DataLoader(dataset, batch_size=batch_size, num_workers=workers, sampler=sampler, pin_memory=True)  # expect: train-loader-not-shuffled


def train(epochs=3):
    loader = create_dataloader(FolderBoxes(), batch_size=16)
    net = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.937)
    for epoch in range(epochs):
        net.train()
        for imgs, targets in loader:
            opt.zero_grad()
            loss = nn.functional.smooth_l1_loss(net(imgs), targets)
            loss.backward()
            opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    train()
