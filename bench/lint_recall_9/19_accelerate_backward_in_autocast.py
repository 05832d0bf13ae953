# Source: https://github.com/lucidrains/denoising-diffusion-pytorch/commit/2b742dd2ccd899f24111b0fba4d3726e65b8c88e
# Pitfall: the diffusion trainer calls accelerator.backward() inside the accelerator.autocast() block; the AMP
#   recipe keeps only the forward pass and loss under autocast and runs backward outside it.
# Reproduced in our own words, not the original code.
import torch
from accelerate import Accelerator
from torch.optim import Adam


class Trainer:
    def __init__(self, diffusion_model, loader, lr=8e-5, grad_accum=2, steps=100000, fp16=True):
        self.accelerator = Accelerator(mixed_precision="fp16" if fp16 else "no")
        self.grad_accum = grad_accum
        self.steps = steps
        opt = Adam(diffusion_model.parameters(), lr=lr, betas=(0.9, 0.99))
        self.model, self.opt, self.dl = self.accelerator.prepare(diffusion_model, opt, loader)
        self.step = 0

    def infinite(self):
        while True:
            for batch in self.dl:
                yield batch

    def train(self):
        data_iter = self.infinite()
        self.model.train()
        while self.step < self.steps:
            total_loss = 0.0
            for _ in range(self.grad_accum):
                data = next(data_iter)
                with self.accelerator.autocast():
                    loss = self.model(data)
                    loss = loss / self.grad_accum
                    total_loss += loss.item()
                    self.accelerator.backward(loss)  # expect: backward-inside-autocast
            self.accelerator.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1
            if self.step % 100 == 0:
                self.accelerator.print(f"step {self.step} loss {total_loss:.4f}")
