# Source: https://github.com/harubaru/waifu-diffusion/issues/64
# Pitfall: fp16 diffusion fine-tuning clips grad norm on the scaled gradients.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F

scaler = torch.cuda.amp.GradScaler()


def train_step(unet, optimizer, noisy, timesteps, text_emb, noise, clip_grad_norm=1.0):
    with torch.autocast("cuda"):
        pred = unet(noisy, timesteps, text_emb).sample
        loss = F.mse_loss(pred.float(), noise.float())
    scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(unet.parameters(), clip_grad_norm)  # expect: clip-before-unscale
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
