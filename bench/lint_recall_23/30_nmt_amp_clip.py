"""Mixed-precision training step for a transformer NMT model with gradient-norm clipping."""
import torch
import torch.nn as nn
import torch.nn.utils as torch_utils
from torch.cuda.amp import GradScaler, autocast


class Seq2SeqTrainer:
    def __init__(self, model, optimizer, max_grad_norm=5.0, pad_index=1):
        self.model = model
        self.optimizer = optimizer
        self.max_grad_norm = max_grad_norm
        self.crit = nn.NLLLoss(ignore_index=pad_index, reduction="mean")
        self.scaler = GradScaler()

    def train_step(self, src, tgt):
        self.model.train()
        self.optimizer.zero_grad()
        y = tgt[:, 1:]
        with autocast():
            y_hat = self.model(src, tgt[:, :-1])
            loss = self.crit(torch.log_softmax(y_hat, dim=-1).reshape(-1, y_hat.size(-1)), y.reshape(-1))
        self.scaler.scale(loss).backward()
        torch_utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)  # expect: clip-before-unscale
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()

    @torch.no_grad()
    def validate(self, src, tgt):
        self.model.eval()
        y_hat = self.model(src, tgt[:, :-1])
        logp = torch.log_softmax(y_hat, dim=-1)
        return self.crit(logp.reshape(-1, y_hat.size(-1)), tgt[:, 1:].reshape(-1)).item()


def run(model, train_batches, valid_batches, epochs=20, lr=1e-3):
    model = model.cuda()
    trainer = Seq2SeqTrainer(model, torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98)))
    for epoch in range(epochs):
        train_loss = sum(trainer.train_step(s.cuda(), t.cuda()) for s, t in train_batches) / len(train_batches)
        valid_loss = sum(trainer.validate(s.cuda(), t.cuda()) for s, t in valid_batches) / len(valid_batches)
        print(f"epoch {epoch}: train {train_loss:.3f} valid {valid_loss:.3f}")
