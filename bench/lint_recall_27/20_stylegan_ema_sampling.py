"""Generate image grids from the EMA generator of a saved StyleGAN2 checkpoint."""
import argparse

import torch
import torchvision


def noise_list(n, layers, latent_dim, device):
    return [(torch.randn(n, latent_dim, device=device), layers)]


def latent_to_w(style_vectorizer, latent_descr):
    return [(style_vectorizer(z), num_layers) for z, num_layers in latent_descr]


def styles_def_to_tensor(styles_def):
    return torch.cat([t[:, None, :].expand(-1, n, -1) for t, n in styles_def], dim=1)


def load_ema_generator(model_cls, checkpoint_path, device):
    model = model_cls().to(device)
    load_data = torch.load(checkpoint_path)  # expect: torch-load-unsafe
    model.load_state_dict(load_data["GAN"])
    model.eval()
    return model


@torch.no_grad()
def generate(model, num_rows=8, latent_dim=512, image_size=128, device="cuda"):
    n = num_rows ** 2
    latents = noise_list(n, model.GE.num_layers, latent_dim, device)
    noise = torch.rand(n, image_size, image_size, 1, device=device)
    w_styles = styles_def_to_tensor(latent_to_w(model.SE, latents))
    images = model.GE(w_styles, noise)
    return images.clamp_(0.0, 1.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkpoint")
    parser.add_argument("--out", default="samples.png")
    parser.add_argument("--rows", type=int, default=8)
    args = parser.parse_args()
    from stylegan2_pytorch import StyleGAN2
    model = load_ema_generator(StyleGAN2, args.checkpoint, "cuda")
    images = generate(model, num_rows=args.rows)
    torchvision.utils.save_image(images, args.out, nrow=args.rows)


if __name__ == "__main__":
    main()
