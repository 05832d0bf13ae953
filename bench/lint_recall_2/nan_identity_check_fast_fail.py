# Source: https://github.com/karpathy/autoresearch/pull/84
# Pitfall: The fast-fail guard was proposed as `train_loss is math.nan or train_loss > 100`; a NaN produced by arithmetic is never the math.nan object (and NaN > 100 is False), so a diverged run is not caught and keeps training on garbage.
# Reproduced in our own words, not the original code.
import math
import time
import torch


def train_with_budget(model, optimizer, get_batch, budget_seconds=300):
    model.train()
    start = time.time()
    step = 0
    while time.time() - start < budget_seconds:
        x, y = get_batch()
        loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        train_loss = loss.item()
        if train_loss is math.nan or train_loss > 100:  # expect: nan-equality-check
            print("FAIL: loss exploded")
            return None
        step += 1
    return step
