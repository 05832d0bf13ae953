"""Codec-LM TTS trainer: one epoch with gradient accumulation handled by accelerate."""
import torch


class ValleTrainer:
    def __init__(self, model, optimizer, scheduler, accelerator, train_loader, cfg):
        self.model = model
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.accelerator = accelerator
        self.train_loader = train_loader
        self.cfg = cfg
        self.step = 0

    def _train_step(self, batch):
        out = self.model(
            phone_ids=batch["phone_seq"],
            phone_mask=batch["phone_mask"],
            target_ids=batch["acoustic_token"],
            target_mask=batch["acoustic_mask"],
        )
        return out.loss

    def train_epoch(self):
        self.model.train()
        epoch_sum_loss = 0.0
        n_batches = 0
        for batch in self.train_loader:
            with self.accelerator.accumulate(self.model):
                loss = self._train_step(batch)
                self.accelerator.backward(loss)
                if self.accelerator.sync_gradients:
                    self.accelerator.clip_grad_norm_(self.model.parameters(), self.cfg["grad_clip"])
                self.optimizer.step()
                self.scheduler.step()
                self.optimizer.zero_grad()
            epoch_sum_loss += loss  # expect: running-loss-keeps-graph
            n_batches += 1
            self.step += 1
        return epoch_sum_loss / max(n_batches, 1)
