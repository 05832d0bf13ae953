# Source: https://github.com/ApolloResearch/e2e_sae/pull/70
# Pitfall: The sparse-autoencoder training loop accumulates gradients over several batches before
# stepping, but the per-batch loss (a mean) is not divided by the number of accumulation steps.
# Reproduced in our own words, not the original code.
import torch


def train_sae(sae, activation_batches, lr, grad_accum_steps, n_steps, device):
    optimizer = torch.optim.Adam(sae.parameters(), lr=lr)
    sae.train()
    step = 0
    for i, acts in enumerate(activation_batches):
        acts = acts.to(device)
        recon, codes = sae(acts)
        mse = (recon - acts).pow(2).mean()
        sparsity = codes.abs().sum(-1).mean()
        loss = mse + 1e-3 * sparsity
        loss.backward()  # expect: accumulation-not-averaged
        if (i + 1) % grad_accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
            step += 1
            if step >= n_steps:
                break
    return sae
