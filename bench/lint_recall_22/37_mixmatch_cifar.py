"""MixMatch on CIFAR-10 with 250 labels (WRN-28-2)."""
import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.data as data
import torchvision
import torchvision.transforms as T


class TransformTwice:
    def __init__(self, transform):
        self.transform = transform

    def __call__(self, x):
        return self.transform(x), self.transform(x)


def sharpen(p, T_=0.5):
    pt = p ** (1 / T_)
    return pt / pt.sum(dim=1, keepdim=True).clamp_min(1e-12)


def mixmatch_step(model, optimizer, x, y, u1, u2, num_classes=10, alpha=0.75, lambda_u=75.0):
    y = F.one_hot(y, num_classes).float()
    with torch.no_grad():
        p = (torch.softmax(model(u1), dim=1) + torch.softmax(model(u2), dim=1)) / 2
        q = sharpen(p)
    all_x = torch.cat([x, u1, u2])
    all_y = torch.cat([y, q, q])
    lam = np.random.beta(alpha, alpha)
    lam = max(lam, 1 - lam)
    idx = torch.randperm(all_x.size(0), device=all_x.device)
    mixed_x = lam * all_x + (1 - lam) * all_x[idx]
    mixed_y = lam * all_y + (1 - lam) * all_y[idx]
    logits = model(mixed_x)
    n = x.size(0)
    lx = -(F.log_softmax(logits[:n], dim=1) * mixed_y[:n]).sum(1).mean()
    lu = ((torch.softmax(logits[n:], dim=1) - mixed_y[n:]) ** 2).mean()
    loss = lx + lambda_u * lu
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main(model, n_labeled=250, batch_size=64, epochs=1024, device="cuda"):
    transform_train = T.Compose([T.RandomCrop(32, padding=4, padding_mode="reflect"),
                                 T.RandomHorizontalFlip(), T.ToTensor()])
    base = torchvision.datasets.CIFAR10("./data", train=True, download=True)
    labels = np.array(base.targets)
    labeled_idx = np.concatenate([np.where(labels == c)[0][: n_labeled // 10] for c in range(10)])
    unlabeled_idx = np.setdiff1d(np.arange(len(labels)), labeled_idx)
    labeled_set = data.Subset(torchvision.datasets.CIFAR10("./data", train=True, transform=transform_train),
                              labeled_idx)
    unlabeled_set = data.Subset(torchvision.datasets.CIFAR10("./data", train=True,
                                                             transform=TransformTwice(transform_train)),
                                unlabeled_idx)
    labeled_loader = data.DataLoader(labeled_set, batch_size=batch_size, shuffle=True, num_workers=0, drop_last=True)  # expect: dataloader-blocking
    unlabeled_loader = data.DataLoader(unlabeled_set, batch_size=batch_size, shuffle=True, num_workers=4,
                                       drop_last=True, pin_memory=True)
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.002)
    for epoch in range(epochs):
        model.train()
        for (x, y), ((u1, u2), _) in zip(labeled_loader, unlabeled_loader):
            x, y = x.to(device), y.to(device)
            u1, u2 = u1.to(device), u2.to(device)
            mixmatch_step(model, optimizer, x, y, u1, u2)
