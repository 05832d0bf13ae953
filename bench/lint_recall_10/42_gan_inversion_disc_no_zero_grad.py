# Source: https://github.com/Hsintien-Ng/idinvert_pytorch-reproduced/commit/cf3302510573138cf16202add06feae7c93624ea
# Pitfall: in the encoder-training loop for GAN inversion, the discriminator's optimizer never clears its gradients
#   (the encoder's does), so each D step applies every previous D gradient, plus those leaked from the E step.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def r1_penalty(D, real):
    real = real.detach().requires_grad_(True)
    out = D(real)
    grad, = torch.autograd.grad(out.sum(), real, create_graph=True)
    return grad.pow(2).flatten(1).sum(1).mean()


def train_encoder(E, G, D, loader, opt_E, opt_D, device, epochs=10, gp_weight=10.0, adv_weight=0.08):
    G.eval()
    for p in G.parameters():
        p.requires_grad_(False)
    E.train()
    D.train()
    for epoch in range(epochs):
        for it, x in enumerate(loader):
            x = x.to(device)
            w = E(x)
            x_rec = G(w)

            # discriminator step
            loss_real = F.softplus(-D(x)).mean()
            loss_fake = F.softplus(D(x_rec.detach())).mean()
            loss_gp = r1_penalty(D, x)
            d_loss = loss_real + loss_fake + gp_weight * loss_gp
            d_loss.backward()  # expect: gradients-never-cleared
            opt_D.step()

            # encoder step
            loss_pix = torch.mean((x - x_rec) ** 2)
            loss_adv = F.softplus(-D(x_rec)).mean()
            e_loss = loss_pix + adv_weight * loss_adv
            opt_E.zero_grad()
            e_loss.backward()
            opt_E.step()
            if it % 100 == 0:
                print(f"epoch {epoch} it {it}: D {d_loss.item():.3f} pix {loss_pix.item():.4f} adv {loss_adv.item():.3f}")
