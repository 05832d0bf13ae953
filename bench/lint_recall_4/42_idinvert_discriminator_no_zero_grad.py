# Source: https://github.com/Hsintien-Ng/idinvert_pytorch-reproduced/issues/1
# Pitfall: the in-domain encoder loop steps the discriminator's optimizer every iteration but
#   never clears its gradients, so D's gradients pile up across iterations; the author fixed it.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def r1_penalty(real_scores, real_images):
    grad, = torch.autograd.grad(real_scores.sum(), real_images, create_graph=True)
    return grad.pow(2).flatten(1).sum(1).mean()


def train_encoder(E, G, D, loader, n_iters, device, lr_e=1e-4, lr_d=1e-4, r1_gamma=10.0):
    optimizer_E = torch.optim.Adam(E.parameters(), lr=lr_e, betas=(0.9, 0.99))
    optimizer_D = torch.optim.Adam(D.parameters(), lr=lr_d, betas=(0.9, 0.99))
    G.eval()
    it = 0
    while it < n_iters:
        for real in loader:
            real = real.to(device).requires_grad_(True)

            # discriminator update
            with torch.no_grad():
                fake = G(E(real))
            real_scores = D(real)
            fake_scores = D(fake)
            loss_D = F.softplus(fake_scores).mean() + F.softplus(-real_scores).mean()
            loss_D = loss_D + r1_gamma * 0.5 * r1_penalty(real_scores, real)
            loss_D.backward()  # expect: gradients-never-cleared
            optimizer_D.step()

            # encoder update
            optimizer_E.zero_grad()
            rec = G(E(real))
            loss_E = F.mse_loss(rec, real) + 0.08 * F.softplus(-D(rec)).mean()
            loss_E.backward()
            optimizer_E.step()

            it += 1
            if it >= n_iters:
                break
