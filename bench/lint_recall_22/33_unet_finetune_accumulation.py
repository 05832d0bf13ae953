"""Full fine-tuning of a diffusion UNet with gradient accumulation and fp16 loss scaling."""
import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm


class TrainProgress:
    def __init__(self):
        self.epoch = 0
        self.epoch_step = 0
        self.global_step = 0

    def next_step(self):
        self.epoch_step += 1
        self.global_step += 1

    def next_epoch(self):
        self.epoch += 1
        self.epoch_step = 0


class FineTuneTrainer:
    def __init__(self, unet, noise_scheduler, data_loader, epochs=10, lr=1e-5,
                 gradient_accumulation_steps=4, device="cuda"):
        self.unet = unet.to(device)
        self.noise_scheduler = noise_scheduler
        self.data_loader = data_loader
        self.epochs = epochs
        self.accum = gradient_accumulation_steps
        self.device = device
        self.parameters = [p for p in self.unet.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(self.parameters, lr=lr)
        self.scaler = torch.cuda.amp.GradScaler()

    def is_update_step(self, progress):
        return ((progress.global_step + 1) % self.accum) == 0

    def predict(self, batch):
        latents = batch["latents"].to(self.device)
        noise = torch.randn_like(latents)
        t = torch.randint(0, self.noise_scheduler.config.num_train_timesteps, (latents.shape[0],),
                          device=self.device)
        noisy = self.noise_scheduler.add_noise(latents, noise, t)
        with torch.autocast("cuda", dtype=torch.float16):
            pred = self.unet(noisy, t, batch["text_embeds"].to(self.device)).sample
        return pred, noise

    def train(self):
        progress = TrainProgress()
        self.unet.train()
        for _ in tqdm(range(self.epochs), desc="epoch"):
            for batch in tqdm(self.data_loader, desc="step"):
                predicted, target = self.predict(batch)
                loss = F.mse_loss(predicted.float(), target.float()) / self.accum

                if self.is_update_step(progress):
                    self.optimizer.zero_grad()  # expect: grad-cleared-before-step

                self.scaler.scale(loss).backward()

                if self.is_update_step(progress):
                    self.scaler.unscale_(self.optimizer)
                    nn.utils.clip_grad_norm_(self.parameters, 1.0)
                    self.scaler.step(self.optimizer)
                    self.scaler.update()
                progress.next_step()
            progress.next_epoch()
