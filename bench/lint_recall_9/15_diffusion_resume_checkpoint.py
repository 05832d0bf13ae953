# Source: https://github.com/lucidrains/denoising-diffusion-pytorch/commit/403f9e686046f121f6cfaaeac646116c0f5ca275
# Pitfall: the trainer resumes from a milestone file with torch.load(path, map_location=...) and no
#   weights_only=True, so a tampered checkpoint can run arbitrary pickled code when training resumes.
# Reproduced in our own words, not the original code.
from pathlib import Path

import torch
from torch.optim import Adam


class DiffusionTrainer:
    def __init__(self, diffusion, loader, results_folder="./results", lr=1e-4, ema_decay=0.995):
        self.model = diffusion
        self.loader = loader
        self.opt = Adam(diffusion.parameters(), lr=lr)
        self.ema_decay = ema_decay
        self.ema = {k: v.detach().clone() for k, v in diffusion.state_dict().items()}
        self.step = 0
        self.results_folder = Path(results_folder)
        self.results_folder.mkdir(exist_ok=True)

    @property
    def device(self):
        return next(self.model.parameters()).device

    def save(self, milestone):
        payload = {
            "step": self.step,
            "model": self.model.state_dict(),
            "opt": self.opt.state_dict(),
            "ema": self.ema,
        }
        torch.save(payload, str(self.results_folder / f"model-{milestone}.pt"))

    def load(self, milestone):
        data = torch.load(str(self.results_folder / f"model-{milestone}.pt"), map_location=self.device)  # expect: torch-load-unsafe
        self.model.load_state_dict(data["model"])
        self.opt.load_state_dict(data["opt"])
        self.ema = data["ema"]
        self.step = data["step"]

    @torch.no_grad()
    def update_ema(self):
        for k, v in self.model.state_dict().items():
            if v.dtype.is_floating_point:
                self.ema[k].mul_(self.ema_decay).add_(v, alpha=1 - self.ema_decay)

    def train(self, num_steps, save_every=1000):
        self.model.train()
        while self.step < num_steps:
            for images in self.loader:
                images = images.to(self.device)
                loss = self.model(images)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.update_ema()
                self.step += 1
                if self.step % save_every == 0:
                    self.save(self.step // save_every)
                if self.step >= num_steps:
                    break
