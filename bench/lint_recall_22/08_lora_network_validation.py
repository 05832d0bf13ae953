import torch
import torch.nn.functional as F
from tqdm import tqdm


def diffusion_loss(unet, network, noise_scheduler, batch, device):
    latents = batch["latents"].to(device)
    noise = torch.randn_like(latents)
    timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps,
                              (latents.shape[0],), device=device)
    noisy = noise_scheduler.add_noise(latents, noise, timesteps)
    pred = unet(noisy, timesteps, batch["text_embeds"].to(device)).sample
    return F.mse_loss(pred.float(), noise.float())


def train_network(accelerator, unet, network, optimizer, lr_scheduler, noise_scheduler,
                  train_loader, val_loader, epochs, validate_every=500):
    device = accelerator.device
    global_step = 0
    for epoch in range(epochs):
        accelerator.unwrap_model(network).train()
        for batch in train_loader:
            with accelerator.accumulate(network):
                loss = diffusion_loss(unet, network, noise_scheduler, batch, device)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(network.parameters(), 1.0)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad(set_to_none=True)

            if accelerator.sync_gradients:
                global_step += 1
                if global_step % validate_every == 0:
                    val_total = 0.0
                    progress = tqdm(val_loader, desc="validation steps",
                                    disable=not accelerator.is_local_main_process)
                    with torch.no_grad():
                        for val_batch in progress:
                            val_loss = diffusion_loss(unet, network, noise_scheduler, val_batch, device)  # expect: validation-in-train-mode
                            val_total += val_loss.item()
                    accelerator.log({"loss/validation": val_total / max(len(val_loader), 1)},
                                    step=global_step)
        accelerator.print(f"epoch {epoch + 1} done, step {global_step}")
