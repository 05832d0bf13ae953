# Source: https://github.com/snakers4/silero-vad/pull/699
# Pitfall: the fine-tuning helper never clears gradients before loss.backward().
# Reproduced in our own words, not the original code.
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    for x, targets, masks in loader:
        x, targets, masks = x.to(device), targets.to(device), masks.to(device)
        probs = model(x)
        loss = (F.binary_cross_entropy(probs, targets, reduction="none") * masks).sum() / masks.sum().clamp_min(1)
        loss.backward()
        optimizer.step()  # expect: gradients-never-cleared
