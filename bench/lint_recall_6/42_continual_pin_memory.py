# Source: https://github.com/awslabs/Renate/pull/17
# Pitfall: batches are copied to the GPU with non_blocking=True but the DataLoader does not pin host memory;
#   the "asynchronous" copy from pageable memory gives no overlap (the PR calls the combination undefined behaviour).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class ContinualLearner:
    def __init__(self, model, lr=0.01, batch_size=64, device="cuda"):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.batch_size = batch_size
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)
        self.loss_fn = nn.CrossEntropyLoss()

    def make_loader(self, dataset):
        return DataLoader(dataset, batch_size=self.batch_size, shuffle=True, num_workers=4)  # expect: dataloader-blocking

    def update(self, dataset, epochs=1):
        loader = self.make_loader(dataset)
        self.model.train()
        for _ in range(epochs):
            for x, y in loader:
                x = x.to(self.device, non_blocking=True)
                y = y.to(self.device, non_blocking=True)
                self.optimizer.zero_grad()
                loss = self.loss_fn(self.model(x), y)
                loss.backward()
                self.optimizer.step()
        return self.model
