"""Precompute autoencoder latents for latent-diffusion training (one .pt file per volume)."""
import argparse
import logging
import os

import torch
import torch.nn as nn


class AutoencoderKL(nn.Module):
    def __init__(self, in_ch=1, latent_ch=4):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv3d(in_ch, 32, 3, stride=2, padding=1), nn.SiLU(),
            nn.Conv3d(32, 64, 3, stride=2, padding=1), nn.SiLU(),
        )
        self.quant_conv_mu = nn.Conv3d(64, latent_ch, 1)

    def encode_stage_2_inputs(self, x):
        return self.quant_conv_mu(self.encoder(x))


def create_training_latents(args, logger):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    autoencoder = AutoencoderKL().to(device)
    try:
        checkpoint_autoencoder = torch.load(args.trained_autoencoder_path)  # expect: torch-load-unsafe
        autoencoder.load_state_dict(checkpoint_autoencoder)
    except FileNotFoundError:
        logger.error("The trained_autoencoder_path does not exist!")
        raise
    autoencoder.eval()

    os.makedirs(args.embedding_base_dir, exist_ok=True)
    for idx in range(args.num_volumes):
        out_filename = os.path.join(args.embedding_base_dir, f"vol_{idx:04d}_emb.pt")
        if os.path.isfile(out_filename):
            continue
        volume = torch.rand(1, 1, 64, 64, 64)
        with torch.no_grad(), torch.autocast(device_type=device.type, enabled=device.type == "cuda"):
            z = autoencoder.encode_stage_2_inputs(volume.to(device))
        logger.info(f"z: {tuple(z.shape)}, {z.dtype}")
        torch.save(z.float().cpu(), out_filename)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--trained_autoencoder_path", default="models/autoencoder.pt")
    parser.add_argument("--embedding_base_dir", default="embeddings")
    parser.add_argument("--num_volumes", type=int, default=4)
    logging.basicConfig(level=logging.INFO)
    create_training_latents(parser.parse_args(), logging.getLogger("latents"))
