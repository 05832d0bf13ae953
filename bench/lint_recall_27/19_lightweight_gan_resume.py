"""GAN trainer with numbered checkpoints that can resume from the latest one."""
from pathlib import Path

import torch


class Trainer:
    def __init__(self, GAN, name="default", models_dir="./models", save_every=1000):
        self.GAN = GAN
        self.name = name
        self.models_dir = Path(models_dir)
        self.save_every = save_every
        self.steps = 0

    def model_name(self, num):
        return str(self.models_dir / self.name / f"model_{num}.pt")

    def save(self, num):
        (self.models_dir / self.name).mkdir(parents=True, exist_ok=True)
        save_data = {"GAN": self.GAN.state_dict(), "steps": self.steps}
        torch.save(save_data, self.model_name(num))

    def load(self, num=-1):
        name = num
        if num == -1:
            paths = sorted((self.models_dir / self.name).glob("model_*.pt"), key=lambda p: int(p.stem.split("_")[1]))
            if not paths:
                return
            name = int(paths[-1].stem.split("_")[1])
        load_data = torch.load(self.model_name(name))  # expect: torch-load-unsafe
        self.steps = load_data["steps"]
        self.GAN.load_state_dict(load_data["GAN"])

    def train_step(self, real, d_opt, g_opt, latent_dim=256):
        self.GAN.D.train()
        self.GAN.G.train()
        z = torch.randn(real.size(0), latent_dim, device=real.device)
        fake = self.GAN.G(z)
        d_loss = (torch.relu(1 + self.GAN.D(fake.detach())) + torch.relu(1 - self.GAN.D(real))).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()

        z = torch.randn(real.size(0), latent_dim, device=real.device)
        g_loss = -self.GAN.D(self.GAN.G(z)).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()

        self.steps += 1
        if self.steps % self.save_every == 0:
            self.save(self.steps // self.save_every)
        return d_loss.item(), g_loss.item()
