"""Prepare the reference latents a text-to-music pipeline conditions on."""
import os

import torch


def load_silence_latent(checkpoint, device, dtype, length=750):
    path = os.path.join(checkpoint, "silence_latent.pt")
    silence_latent = torch.load(path, map_location=device)  # expect: torch-load-unsafe
    silence_latent = silence_latent.transpose(1, 2).to(device=device, dtype=dtype)
    if silence_latent.shape[1] < length:
        reps = -(-length // silence_latent.shape[1])
        silence_latent = silence_latent.repeat(1, reps, 1)
    return silence_latent[:, :length]


class TimbreReference:
    def __init__(self, vae, checkpoint, device="cuda", dtype=torch.bfloat16):
        self.vae = vae
        self.device, self.dtype = device, dtype
        self.silence = load_silence_latent(checkpoint, device, dtype)

    @torch.no_grad()
    def encode(self, audio=None):
        if audio is None:
            return self.silence
        audio = audio.to(device=self.device, dtype=self.dtype)
        latents = self.vae.encode(audio).latent_dist.mode()
        return latents.transpose(1, 2)
