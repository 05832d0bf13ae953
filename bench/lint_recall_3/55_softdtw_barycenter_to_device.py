# Source: https://github.com/Maghoumi/pytorch-softdtw-cuda/issues/25
# Pitfall: The sequence being optimised is created with requires_grad=True and then moved with
# .to(device); the GPU copy is not a leaf, so x.grad is empty and the optimizer cannot update it.
# Reproduced in our own words, not the original code.
import torch


def fit_barycenter(sdtw, references, steps=200, lr=0.05, device=torch.device("cuda")):
    batch_size, len_x, dims = references.shape[0], 15, references.shape[-1]
    x = torch.rand((1, len_x, dims), requires_grad=True)
    x = x.to(device)  # expect: non-leaf-parameter
    refs = references.to(device)
    for _ in range(steps):
        loss = sdtw(x.expand(batch_size, -1, -1), refs).mean()
        loss.backward()
        with torch.no_grad():
            x -= lr * x.grad
            x.grad.zero_()
    return x.detach()
