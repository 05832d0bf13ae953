# Source: https://github.com/huggingface/accelerate/issues/2251
# Pitfall: The timesteps and importance weights drawn by the schedule sampler live on the CPU; the code
# calls t.to(batch.device) as a statement, discarding the result, so the later GPU ops hit a device mismatch.
# Reproduced in our own words, not the original code.
import numpy as np
import torch


class UniformSampler:
    def __init__(self, num_timesteps):
        self._weights = np.ones(num_timesteps)

    def sample(self, batch_size):
        p = self._weights / self._weights.sum()
        idx = np.random.choice(len(p), size=(batch_size,), p=p)
        t = torch.from_numpy(idx).long()
        w = torch.from_numpy(1.0 / (len(p) * p[idx])).float()
        return t, w


def diffusion_step(model, diffusion, sampler, batch, optimizer, accelerator):
    t, weights = sampler.sample(batch.shape[0])
    t.to(batch.device)  # expect: tensor-op-result-discarded
    weights = weights.to(batch.device)
    losses = diffusion.training_losses(model, batch, t)
    loss = (losses["loss"] * weights).mean()
    optimizer.zero_grad()
    accelerator.backward(loss)
    optimizer.step()
    return loss.item()
