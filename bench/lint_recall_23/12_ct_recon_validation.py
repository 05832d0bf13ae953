"""Train a post-processing U-Net-ish CNN on FBP reconstructions; validate every epoch."""
import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 1, 3, padding=1),
    ).to(device)


def fake_split(n):
    fbp = torch.randn(n, 1, 64, 64)
    return TensorDataset(fbp, fbp + 0.1 * torch.randn_like(fbp))


model = make_model()
loss_fcn = nn.MSELoss()
optimiser = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.99))
train_loader = DataLoader(fake_split(512), batch_size=4, shuffle=True)
validation_loader = DataLoader(fake_split(64), batch_size=1)

train_loss, validation_loss = [], []
best_loss, best_state = float("inf"), None
for epoch in range(20):
    model.train()
    running = 0.0
    for sinogram_fbp, target in train_loader:
        optimiser.zero_grad()
        reconstruction = model(sinogram_fbp.to(device))
        loss = loss_fcn(reconstruction, target.to(device))
        loss.backward()
        optimiser.step()
        running += loss.item()
    train_loss.append(running / len(train_loader))

    model.eval()
    val_running = 0.0
    for sinogram_fbp, target in validation_loader:
        reconstruction = model(sinogram_fbp.to(device))  # expect: validation-in-train-mode
        val_running += loss_fcn(reconstruction, target.to(device)).item()
    validation_loss.append(val_running / len(validation_loader))
    if validation_loss[-1] < best_loss:
        best_loss = validation_loss[-1]
        best_state = copy.deepcopy(model.state_dict())
    print(f"epoch {epoch}: train {train_loss[-1]:.4f} val {validation_loss[-1]:.4f}")

torch.save(best_state, "fbpconvnet_best.pt")
