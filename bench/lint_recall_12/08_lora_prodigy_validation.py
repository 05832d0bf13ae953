"""Diffusion fine-tuning loop with periodic validation renders (Prodigy optimizer)."""
import torch
import torch.nn.functional as F


def run_validation(transformer, vae, prompts, scheduler, device):
    transformer.eval()  # expect: train-mode-not-restored
    images = []
    with torch.no_grad():
        for prompt_embeds in prompts:
            latents = torch.randn(1, 4, 64, 64, device=device)
            for t in scheduler.timesteps:
                noise_pred = transformer(latents, t, prompt_embeds)
                latents = scheduler.step(noise_pred, t, latents).prev_sample
            images.append(vae.decode(latents / 0.18215).sample)
    return images


def train(transformer, vae, noise_scheduler, optimizer, lr_scheduler, loader, val_prompts,
          max_steps=10000, validation_every=500, device="cuda"):
    global_step = 0
    transformer.train()
    while global_step < max_steps:
        for latents, prompt_embeds in loader:
            latents, prompt_embeds = latents.to(device), prompt_embeds.to(device)
            noise = torch.randn_like(latents)
            t = torch.randint(0, noise_scheduler.config.num_train_timesteps, (latents.size(0),), device=device)
            noisy = noise_scheduler.add_noise(latents, noise, t)
            pred = transformer(noisy, t, prompt_embeds)
            loss = F.mse_loss(pred.float(), noise.float())
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            global_step += 1
            if global_step % validation_every == 0:
                run_validation(transformer, vae, val_prompts, noise_scheduler, device)
            if global_step >= max_steps:
                break
