"""Patch-based retinal vessel segmentation trainer: train, validate, early stop."""
import torch
import torch.nn.functional as F


class SegTrainer:
    def __init__(self, model, optimizer, device="cuda", patience=20):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device
        self.patience = patience
        self.best_score = 0.0
        self.bad_epochs = 0

    def one_epoch(self, loader):
        self.model.train()
        running = 0.0
        for inputs, labels in loader:
            inputs, labels = inputs.to(self.device), labels.to(self.device)
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(inputs), labels)
            loss.backward()
            self.optimizer.step()
            running += loss.item()
        return running / len(loader)

    def evaluate(self, loader):
        tp = fp = fn = 0
        for inputs, labels in loader:
            inputs, labels = inputs.to(self.device), labels.to(self.device)
            pred = self.model(inputs).argmax(1)
            tp += ((pred == 1) & (labels == 1)).sum().item()
            fp += ((pred == 1) & (labels == 0)).sum().item()
            fn += ((pred == 0) & (labels == 1)).sum().item()
        return 2 * tp / max(2 * tp + fp + fn, 1)

    def train(self, train_loader, val_loader, epochs=100):
        for epoch in range(epochs):
            loss = self.one_epoch(train_loader)
            self.model.eval()
            score = self.evaluate(val_loader)  # expect: validation-in-train-mode
            print(f"epoch {epoch}: loss {loss:.4f} dice {score:.4f}")
            if score > self.best_score:
                self.best_score, self.bad_epochs = score, 0
                torch.save(self.model.state_dict(), "best.pt")
            else:
                self.bad_epochs += 1
                if self.bad_epochs >= self.patience:
                    return
