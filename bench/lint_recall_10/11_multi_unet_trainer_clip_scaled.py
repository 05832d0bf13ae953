# Source: https://github.com/lucidrains/DALLE2-pytorch/commit/1924c7cc3da2c2309f57571a45ff0cfdff021490
# Pitfall: each unet has its own GradScaler, but update() clips the unet's gradients while they are still
#   multiplied by the loss scale; max_grad_norm then clips almost every step to a tiny effective norm.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.cuda.amp import autocast, GradScaler


class CascadeTrainer(nn.Module):
    def __init__(self, decoder, lr=1e-4, wd=1e-2, max_grad_norm=0.5, amp=True):
        super().__init__()
        self.decoder = decoder
        self.amp = amp
        self.max_grad_norm = max_grad_norm
        self.num_unets = len(decoder.unets)
        for i, unet in enumerate(decoder.unets):
            opt = torch.optim.AdamW(unet.parameters(), lr=lr, weight_decay=wd)
            setattr(self, f"optim{i}", opt)
            setattr(self, f"scaler{i}", GradScaler(enabled=amp))

    def _parts(self, unet_number):
        idx = unet_number - 1
        return self.decoder.unets[idx], getattr(self, f"optim{idx}"), getattr(self, f"scaler{idx}")

    def forward(self, images, text_embeds, unet_number):
        _, _, scaler = self._parts(unet_number)
        with autocast(enabled=self.amp):
            loss = self.decoder(images, text_embed=text_embeds, unet_number=unet_number)
        scaler.scale(loss).backward()
        return loss.item()

    def update(self, unet_number):
        unet, optimizer, scaler = self._parts(unet_number)
        if self.max_grad_norm is not None:
            nn.utils.clip_grad_norm_(unet.parameters(), self.max_grad_norm)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()


def train(trainer, loader, steps, device="cuda"):
    trainer.to(device)
    for step, (images, text_embeds) in zip(range(steps), loader):
        images, text_embeds = images.to(device), text_embeds.to(device)
        for unet_number in range(1, trainer.num_unets + 1):
            loss = trainer(images, text_embeds, unet_number)
            trainer.update(unet_number)
            if step % 100 == 0:
                print(f"step {step} unet {unet_number}: loss {loss:.4f}")
