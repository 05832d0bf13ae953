# Source: https://github.com/choderalab/modelforge/pull/129
# Pitfall: The training DataLoader is built without shuffle=True, on the wrong assumption that batches are shuffled by default; every epoch sees the molecules in the same order, biasing SGD.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader, random_split


class PotentialDataModule:
    def __init__(self, dataset, batch_size=64, split=(0.8, 0.1, 0.1), seed=42):
        self.dataset = dataset
        self.batch_size = batch_size
        n = len(dataset)
        n_train = int(split[0] * n)
        n_val = int(split[1] * n)
        generator = torch.Generator().manual_seed(seed)
        self.train_set, self.val_set, self.test_set = random_split(
            dataset, [n_train, n_val, n - n_train - n_val], generator=generator
        )

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size)  # expect: train-loader-not-shuffled

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=self.batch_size, shuffle=False)


def fit(model, datamodule, epochs=100, lr=1e-3):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for _ in range(epochs):
        model.train()
        for batch in datamodule.train_dataloader():
            optimizer.zero_grad()
            energy_pred = model(batch["positions"], batch["atomic_numbers"])
            loss = torch.nn.functional.mse_loss(energy_pred, batch["energy"])
            loss.backward()
            optimizer.step()
