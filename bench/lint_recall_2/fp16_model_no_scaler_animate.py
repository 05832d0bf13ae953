# Source: https://github.com/jinxixiang/magic_animate_unofficial/issues/6
# Pitfall: To fit in V100 memory the denoising model is cast with .half() and trained directly in float16 with no GradScaler or fp32 master weights; small gradients flush to zero, updates overflow and the loss becomes NaN after optimizer.step().
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def train_animation(unet, noise_scheduler, loader, device, lr=1e-5, epochs=1):
    unet = unet.to(device).half()  # expect: unscaled-fp16
    optimizer = torch.optim.AdamW(unet.parameters(), lr=lr, eps=1e-8)
    for epoch in range(epochs):
        unet.train()
        for latents, pose_cond in loader:
            latents = latents.to(device, dtype=torch.float16)
            pose_cond = pose_cond.to(device, dtype=torch.float16)
            noise = torch.randn_like(latents)
            timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (latents.shape[0],), device=device)
            noisy = noise_scheduler.add_noise(latents, noise, timesteps)
            pred = unet(noisy, timesteps, pose_cond)
            loss = F.mse_loss(pred.float(), noise.float())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.5f}")
