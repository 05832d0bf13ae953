"""Step-based trainer for a denoising diffusion model with periodic sampling."""
import torch
from torch.optim import Adam


class Trainer:
    def __init__(self, diffusion_model, ema_model, dataloader, accelerator, train_lr=8e-5,
                 train_num_steps=100000, grad_accum=2, save_every=1000, num_samples=16):
        self.model = diffusion_model
        self.ema_model = ema_model
        self.dl = self._cycle(dataloader)
        self.accelerator = accelerator
        self.opt = Adam(diffusion_model.parameters(), lr=train_lr, betas=(0.9, 0.99))
        self.train_num_steps = train_num_steps
        self.grad_accum = grad_accum
        self.save_every = save_every
        self.num_samples = num_samples
        self.step = 0

    @staticmethod
    def _cycle(dl):
        while True:
            for data in dl:
                yield data

    def _update_ema(self, decay=0.995):
        with torch.no_grad():
            for p_ema, p in zip(self.ema_model.parameters(), self.model.parameters()):
                p_ema.lerp_(p, 1 - decay)

    def train(self):
        self.model.train()
        while self.step < self.train_num_steps:
            total_loss = 0.0
            for _ in range(self.grad_accum):
                data = next(self.dl).to(self.accelerator.device)
                with self.accelerator.autocast():
                    loss = self.model(data) / self.grad_accum
                    total_loss += loss.item()
                self.accelerator.backward(loss)
            self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1
            self._update_ema()

            if self.step % self.save_every == 0:
                self.model.eval()  # expect: train-mode-not-restored
                with torch.inference_mode():
                    images = self.model.sample(batch_size=self.num_samples)
                self.accelerator.save({"step": self.step, "images": images.cpu()}, f"sample-{self.step}.pt")
            self.accelerator.print(f"step {self.step}: loss {total_loss:.4f}")
