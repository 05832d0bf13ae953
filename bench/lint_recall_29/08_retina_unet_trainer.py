"""Retinal vessel segmentation trainer (U-Net on image patches)."""
import torch
import torch.nn.functional as F


class NNTrainer:
    def __init__(self, model, optimizer, device, epochs, validation_frequency=2):
        self.model = model
        self.optimizer = optimizer
        self.device = device
        self.epochs = epochs
        self.validation_frequency = validation_frequency
        self.best_f1 = 0.0

    def one_epoch(self, data_loader):
        self.model.train()
        running = 0.0
        for i, (inputs, labels) in enumerate(data_loader):
            inputs = inputs.to(self.device)
            labels = labels.to(self.device).long()
            self.optimizer.zero_grad()
            outputs = self.model(inputs)
            loss = F.nll_loss(F.log_softmax(outputs, dim=1), labels)
            loss.backward()
            self.optimizer.step()
            running += loss.item()
        return running / max(len(data_loader), 1)

    def validation(self, validation_loader):
        tp = fp = fn = 0
        for inputs, labels in validation_loader:
            inputs = inputs.to(self.device)
            labels = labels.to(self.device).long()
            outputs = self.model(inputs)  # expect: validation-in-train-mode
            pred = outputs.argmax(dim=1)
            tp += ((pred == 1) & (labels == 1)).sum().item()
            fp += ((pred == 1) & (labels == 0)).sum().item()
            fn += ((pred == 0) & (labels == 1)).sum().item()
        return 2 * tp / max(2 * tp + fp + fn, 1)

    def train(self, data_loader, validation_loader):
        for epoch in range(1, self.epochs + 1):
            loss = self.one_epoch(data_loader)
            print(f"epoch {epoch} loss {loss:.4f}")
            if epoch % self.validation_frequency == 0:
                self.model.eval()
                f1 = self.validation(validation_loader)
                if f1 > self.best_f1:
                    self.best_f1 = f1
                    torch.save(self.model.state_dict(), "best.pt")
