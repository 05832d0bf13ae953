"""A small trainer loop with gradient accumulation and optional gradient clipping."""
import torch


class Trainer:
    def __init__(self, model, optimizer, accumulate_grad_batches=4, gradient_clip=0.0, device="cuda"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.accumulate_grad_batches = accumulate_grad_batches
        self.gradient_clip = gradient_clip
        self.device = device
        self.global_step = 0
        self.running_loss = []

    def training_step(self, batch):
        x, y = (t.to(self.device) for t in batch)
        return self.model.loss(x, y)

    def run_training_batch(self, batch, batch_nb):
        loss = self.training_step(batch)
        loss.backward()  # expect: accumulation-not-averaged
        self.running_loss.append(loss.item())

        if (batch_nb + 1) % self.accumulate_grad_batches == 0:
            if self.gradient_clip > 0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.gradient_clip)
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.global_step += 1

    def fit(self, train_loader, epochs):
        for epoch in range(epochs):
            self.model.train()
            self.optimizer.zero_grad()
            for batch_nb, batch in enumerate(train_loader):
                self.run_training_batch(batch, batch_nb)
            window = self.running_loss[-100:]
            print(f"epoch {epoch} step {self.global_step} loss {sum(window) / max(len(window), 1):.4f}")
