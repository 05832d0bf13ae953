"""Energy/force regression trainer for atomistic graphs with a periodic validation pass."""
import torch
import torch.nn as nn


class EnergyForceTrainer:
    def __init__(self, model, train_loader, val_loader, lr=5e-4, force_coef=30.0, device="cuda"):
        self.model = model.to(device)
        self.device = device
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.force_coef = force_coef
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr)
        self.loss_fn = nn.L1Loss()

    def _compute_loss(self, batch):
        energy, forces = self.model(batch)
        loss = self.loss_fn(energy, batch.y)
        loss = loss + self.force_coef * self.loss_fn(forces, batch.force)
        return loss, energy, forces

    def train(self, max_epochs=10, eval_every=500):
        step = 0
        for epoch in range(max_epochs):
            self.model.train()
            for batch in self.train_loader:
                batch = batch.to(self.device)
                loss, _, _ = self._compute_loss(batch)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                step += 1
                if step % eval_every == 0:
                    metrics = self.validate()
                    print(f"step {step}: {metrics}")
                    self.model.train()

    def validate(self):
        self.model.eval()
        totals = {"energy_mae": 0.0, "forces_mae": 0.0, "loss": 0.0}
        n = 0
        for batch in self.val_loader:
            batch = batch.to(self.device)
            loss, energy, forces = self._compute_loss(batch)  # expect: validation-in-train-mode
            totals["loss"] += loss.item()
            totals["energy_mae"] += (energy - batch.y).abs().mean().item()
            totals["forces_mae"] += (forces - batch.force).abs().mean().item()
            n += 1
        return {k: v / max(n, 1) for k, v in totals.items()}
