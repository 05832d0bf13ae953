# Source: https://github.com/joaoamcarvalho/mpd-public/issues/6
# Pitfall: The trajectory-diffusion training DataLoader is built without shuffle=True (and without a
# sampler), so every epoch visits the training trajectories in the same stored order.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader, random_split


def get_loaders(dataset, batch_size=128, val_fraction=0.1, seed=0):
    n_val = int(len(dataset) * val_fraction)
    generator = torch.Generator().manual_seed(seed)
    train_subset, val_subset = random_split(dataset, [len(dataset) - n_val, n_val], generator=generator)
    train_dataloader = DataLoader(train_subset, batch_size=batch_size)  # expect: train-loader-not-shuffled
    val_dataloader = DataLoader(val_subset, batch_size=batch_size)
    return train_dataloader, val_dataloader


def train(model, dataset, epochs, device):
    train_dl, val_dl = get_loaders(dataset)
    optim = torch.optim.Adam(model.parameters(), lr=3e-4)
    for epoch in range(epochs):
        model.train()
        for batch in train_dl:
            trajectories = batch["traj"].to(device)
            optim.zero_grad()
            loss = model.loss(trajectories)
            loss.backward()
            optim.step()
        model.eval()
        with torch.no_grad():
            val = sum(model.loss(b["traj"].to(device)).item() for b in val_dl) / len(val_dl)
        print(epoch, val)
