# Source: https://github.com/constantinpape/torch-em/pull/357
# Pitfall: Batches are copied to the GPU with .to(device, non_blocking=True) but the DataLoader is created without pin_memory=True; from pageable memory the copy cannot overlap with compute, so the advertised speed-up never happens (the review asked to turn pin_memory on).
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader


def get_data_loader(dataset, batch_size, shuffle=True, num_workers=4):
    return DataLoader(dataset, batch_size=batch_size, shuffle=shuffle, num_workers=num_workers)  # expect: dataloader-blocking


class SegmentationTrainer:
    def __init__(self, model, loss, optimizer, train_dataset, batch_size=4, device="cuda"):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.loss = loss
        self.optimizer = optimizer
        self.train_loader = get_data_loader(train_dataset, batch_size)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for x, y in self.train_loader:
            x = x.to(self.device, non_blocking=True)
            y = y.to(self.device, non_blocking=True)
            self.optimizer.zero_grad()
            pred = self.model(x)
            loss = self.loss(pred, y)
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(self.train_loader)
