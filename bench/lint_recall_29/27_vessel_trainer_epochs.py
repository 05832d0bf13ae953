"""Patch-based vessel segmentation: epoch loop with in-loop validation."""
import torch
import torch.nn.functional as F


def dice_loss(logits, target, eps=1.0):
    prob = torch.softmax(logits, dim=1)[:, 1]
    inter = (prob * target).sum()
    return 1 - (2 * inter + eps) / (prob.sum() + target.sum() + eps)


class NNBee:
    def __init__(self, model, optimizer, device, epochs, validation_frequency=1):
        self.model, self.optimizer, self.device = model, optimizer, device
        self.epochs, self.validation_frequency = epochs, validation_frequency
        self.checkpoint = {"total_epochs": 0, "score": 0.0}

    def train(self, data_loader, validation_loader):
        print("Training...")
        self.model.train()
        for epoch in range(1, self.epochs + 1):
            self.checkpoint["total_epochs"] = epoch
            running = 0.0
            for inputs, labels in data_loader:
                inputs, labels = inputs.to(self.device), labels.to(self.device).long()
                self.optimizer.zero_grad()
                outputs = self.model(inputs)
                loss = F.cross_entropy(outputs, labels) + dice_loss(outputs, labels.float())
                loss.backward()
                self.optimizer.step()
                running += loss.item()
            print(f"epoch {epoch}: loss {running / len(data_loader):.4f}")

            if epoch % self.validation_frequency == 0:
                self.model.eval()  # expect: train-mode-not-restored
                with torch.no_grad():
                    score = self.validation(validation_loader)
                if score > self.checkpoint["score"]:
                    self.checkpoint["score"] = score
                    torch.save(self.model.state_dict(), "best_model.pt")

    def validation(self, loader):
        correct, total = 0, 0
        for inputs, labels in loader:
            pred = self.model(inputs.to(self.device)).argmax(dim=1)
            correct += (pred.cpu() == labels).sum().item()
            total += labels.numel()
        return correct / max(total, 1)
