"""Active-learning solver (VAE + discriminator sampling) with a VGG16-BN task model."""
import torch
import torch.nn as nn


class Solver:
    def __init__(self, args, test_dataloader, device="cuda"):
        self.args = args
        self.test_dataloader = test_dataloader
        self.device = device
        self.ce_loss = nn.CrossEntropyLoss()

    def train_task_model(self, task_model, labeled_loader, epochs):
        optim_task = torch.optim.SGD(task_model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
        task_model.train()
        for epoch in range(epochs):
            for imgs, labels in labeled_loader:
                imgs, labels = imgs.to(self.device), labels.to(self.device)
                optim_task.zero_grad()
                loss = self.ce_loss(task_model(imgs), labels)
                loss.backward()
                optim_task.step()
        return task_model

    def test(self, task_model):
        total, correct = 0, 0
        for imgs, labels in self.test_dataloader:
            imgs = imgs.to(self.device)
            labels = labels.to(self.device)
            with torch.no_grad():
                preds = task_model(imgs)  # expect: validation-in-train-mode
            preds = torch.argmax(preds, dim=1)
            correct += (preds == labels).sum().item()
            total += imgs.size(0)
        return correct / max(total, 1) * 100

    def sample_for_labeling(self, vae, discriminator, unlabeled_loader, budget):
        vae.eval()
        discriminator.eval()
        all_preds, all_indices = [], []
        with torch.no_grad():
            for images, indices in unlabeled_loader:
                images = images.to(self.device)
                _, _, mu, _ = vae(images)
                all_preds.append(discriminator(mu).view(-1).cpu())
                all_indices.extend(indices.tolist())
        vae.train()
        discriminator.train()
        all_preds = torch.cat(all_preds) * -1
        _, top = torch.topk(all_preds, min(budget, len(all_indices)))
        return [all_indices[i] for i in top.tolist()]
