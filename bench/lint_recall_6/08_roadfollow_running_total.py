# Source: https://github.com/NVIDIA-AI-IOT/jetbot/pull/117
# Pitfall: the road-following notebook sums the batch loss tensors into train_loss, keeping every batch's
#   graph alive for the whole epoch; on a Jetson Nano the GPU runs out of memory after a few hundred images.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

model = torchvision.models.resnet18(num_classes=2)
model = model.to(device)
optimizer = torch.optim.Adam(model.parameters())


def run_epoch(train_set, test_set):
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=2, pin_memory=True)
    test_loader = DataLoader(test_set, batch_size=8, shuffle=False, num_workers=2, pin_memory=True)

    model.train()
    train_loss = 0.0
    for images, xy in train_loader:
        images, xy = images.to(device, non_blocking=True), xy.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = F.mse_loss(model(images), xy)
        train_loss += loss  # expect: running-loss-keeps-graph
        loss.backward()
        optimizer.step()

    model.eval()
    test_loss = 0.0
    with torch.no_grad():
        for images, xy in test_loader:
            images, xy = images.to(device, non_blocking=True), xy.to(device, non_blocking=True)
            test_loss += F.mse_loss(model(images), xy).item()
    model.train()
    return train_loss, test_loss / max(len(test_loader), 1)
