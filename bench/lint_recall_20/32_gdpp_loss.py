"""GAN generator update with the GDPP diversity loss added to the adversarial term."""
import torch
import torch.nn.functional as F


def normalize_min_max(eig_vals):
    min_v, max_v = torch.min(eig_vals), torch.max(eig_vals)
    return (eig_vals - min_v) / (max_v - min_v)  # expect: unguarded-zero


def compute_diversity(phi):
    phi = F.normalize(phi, p=2, dim=1)
    s_b = torch.mm(phi, phi.t())
    eig_vals, eig_vecs = torch.linalg.eigh(s_b)
    return eig_vals, eig_vecs


def gdpp_loss(phi_fake, phi_real):
    fake_eig_vals, fake_eig_vecs = compute_diversity(phi_fake)
    real_eig_vals, real_eig_vecs = compute_diversity(phi_real)
    magnitude_loss = 0.0001 * F.mse_loss(fake_eig_vals, real_eig_vals)
    weights = normalize_min_max(real_eig_vals)
    cosine = torch.sum(real_eig_vecs * fake_eig_vecs, dim=0)
    structure_loss = -torch.sum(weights * cosine)
    return magnitude_loss + structure_loss


def generator_step(generator, discriminator, real_imgs, opt_g, latent_dim, gdpp_weight=1.0):
    generator.train()
    opt_g.zero_grad()
    z = torch.randn(real_imgs.size(0), latent_dim, device=real_imgs.device)
    fake = generator(z)
    fake_logits, fake_feats = discriminator(fake, return_features=True)
    with torch.no_grad():
        _, real_feats = discriminator(real_imgs, return_features=True)
    adv = F.binary_cross_entropy_with_logits(fake_logits, torch.ones_like(fake_logits))
    loss = adv + gdpp_weight * gdpp_loss(fake_feats, real_feats)
    loss.backward()
    opt_g.step()
    return loss.item()
