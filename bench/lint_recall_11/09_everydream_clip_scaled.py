"""Stable-diffusion fine-tuning step with fp16 autocast, GradScaler and optional grad clipping."""
import torch
import torch.nn.functional as F


def train_step(unet, text_encoder, vae, noise_scheduler, batch, optimizer, scaler, args):
    with torch.no_grad():
        latents = vae.encode(batch["image"].half()).latent_dist.sample() * 0.18215
        encoder_hidden_states = text_encoder(batch["tokens"])[0]

    noise = torch.randn_like(latents)
    timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (latents.shape[0],),
                              device=latents.device).long()
    noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)

    with torch.autocast(device_type="cuda", dtype=torch.float16):
        model_pred = unet(noisy_latents, timesteps, encoder_hidden_states).sample
        loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")

    scaler.scale(loss).backward()

    if args.clip_grad_norm is not None:
        torch.nn.utils.clip_grad_norm_(unet.parameters(), args.clip_grad_norm)  # expect: clip-before-unscale

    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    return loss.item()


def train(unet, text_encoder, vae, noise_scheduler, dataloader, args):
    optimizer = torch.optim.AdamW(unet.parameters(), lr=args.lr)
    scaler = torch.cuda.amp.GradScaler()
    unet.train()
    for epoch in range(args.max_epochs):
        for step, batch in enumerate(dataloader):
            batch = {k: v.cuda() for k, v in batch.items()}
            loss = train_step(unet, text_encoder, vae, noise_scheduler, batch, optimizer, scaler, args)
            if step % 100 == 0:
                print(f"epoch {epoch} step {step} loss {loss:.4f}")
