"""Classifier-free guidance step with std rescaling, used when sampling previews during fine-tuning."""
import torch


def rescale_noise_cfg(noise_cfg, noise_pred_text, guidance_rescale=0.0):
    std_text = noise_pred_text.std(dim=list(range(1, noise_pred_text.ndim)), keepdim=True)
    std_cfg = noise_cfg.std(dim=list(range(1, noise_cfg.ndim)), keepdim=True)
    noise_pred_rescaled = noise_cfg * (std_text / std_cfg)  # expect: unguarded-zero
    return guidance_rescale * noise_pred_rescaled + (1 - guidance_rescale) * noise_cfg


@torch.no_grad()
def sample_preview(unet, scheduler, text_emb, uncond_emb, latents, guidance_scale=7.5, guidance_rescale=0.7):
    unet.eval()
    for t in scheduler.timesteps:
        latent_in = torch.cat([latents] * 2)
        latent_in = scheduler.scale_model_input(latent_in, t)
        noise_pred = unet(latent_in, t, encoder_hidden_states=torch.cat([uncond_emb, text_emb])).sample
        noise_uncond, noise_text = noise_pred.chunk(2)
        noise_pred = noise_uncond + guidance_scale * (noise_text - noise_uncond)
        if guidance_rescale > 0:
            noise_pred = rescale_noise_cfg(noise_pred, noise_text, guidance_rescale)
        latents = scheduler.step(noise_pred, t, latents).prev_sample
    unet.train()
    return latents
