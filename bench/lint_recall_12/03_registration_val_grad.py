"""Point-cloud descriptor trainer with a hardest-contrastive validation pass."""
import torch
import torch.nn.functional as F


class DescriptorTrainer:
    def __init__(self, model, train_loader, val_loader, device="cuda"):
        self.model = model.to(device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.device = device
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.8)

    def contrastive(self, f0, f1):
        dist = torch.cdist(f0, f1)
        pos = dist.diagonal().pow(2).mean()
        neg = F.relu(1.4 - dist).pow(2).mean()
        return pos + neg

    def train_epoch(self):
        self.model.train()
        for xyz0, xyz1 in self.train_loader:
            self.optimizer.zero_grad()
            f0 = self.model(xyz0.to(self.device))
            f1 = self.model(xyz1.to(self.device))
            loss = self.contrastive(f0, f1)
            loss.backward()
            self.optimizer.step()

    def validate(self):
        self.model.eval()
        total = 0.0
        for xyz0, xyz1 in self.val_loader:
            f0 = self.model(xyz0.to(self.device))  # expect: validation-in-train-mode
            f1 = self.model(xyz1.to(self.device))
            total += self.contrastive(f0, f1).item()
        self.model.train()
        return total / len(self.val_loader)
