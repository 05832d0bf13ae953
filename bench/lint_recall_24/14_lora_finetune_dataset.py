"""LoRA fine-tuning of a text-to-image UNet on a folder of captioned images."""
import torch
from torch.utils.data import DataLoader


def collate_fn(examples):
    pixel_values = torch.stack([e["pixel_values"] for e in examples])
    input_ids = torch.stack([e["input_ids"] for e in examples])
    return {"pixel_values": pixel_values, "input_ids": input_ids}


def train(args, accelerator, unet, text_encoder, vae, noise_scheduler, network, train_dataset_group):
    n_workers = min(args.max_data_loader_n_workers, 8)
    train_dataloader = DataLoader(  # expect: train-loader-not-shuffled
        train_dataset_group,
        batch_size=1,
        collate_fn=collate_fn,
        num_workers=n_workers,
        persistent_workers=args.persistent_data_loader_workers,
    )
    optimizer = torch.optim.AdamW(network.parameters(), lr=args.learning_rate)
    network, optimizer, train_dataloader = accelerator.prepare(network, optimizer, train_dataloader)

    network.train()
    for epoch in range(args.max_train_epochs):
        for batch in train_dataloader:
            with accelerator.accumulate(network):
                with torch.no_grad():
                    latents = vae.encode(batch["pixel_values"]).latent_dist.sample() * 0.18215
                    encoder_hidden_states = text_encoder(batch["input_ids"])[0]
                noise = torch.randn_like(latents)
                timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (latents.shape[0],), device=latents.device)
                noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
                noise_pred = unet(noisy_latents, timesteps, encoder_hidden_states).sample
                loss = torch.nn.functional.mse_loss(noise_pred.float(), noise.float())
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
        accelerator.print(f"epoch {epoch} done, loss {loss.item():.4f}")
