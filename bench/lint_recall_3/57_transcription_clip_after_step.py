# Source: https://github.com/jongwook/onsets-and-frames/issues/24
# Pitfall: The piano-transcription training loop calls backward(), then optimizer.step(), and only then
# clip_grad_norm_; the clipping acts on gradients that have already been applied.
# Reproduced in our own words, not the original code.
from itertools import cycle

import torch
from torch.optim.lr_scheduler import StepLR


def train(model, loader, iterations, learning_rate=6e-4, clip_gradient_norm=3, device="cuda"):
    optimizer = torch.optim.Adam(model.parameters(), learning_rate)
    scheduler = StepLR(optimizer, step_size=10000, gamma=0.98)
    model.train()
    for i, batch in zip(range(1, iterations + 1), cycle(loader)):
        batch = {k: v.to(device) for k, v in batch.items()}
        predictions, losses = model.run_on_batch(batch)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        if clip_gradient_norm:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip_gradient_norm)  # expect: clip-after-step
        if i % 100 == 0:
            print(i, {k: v.item() for k, v in losses.items()})
    return model
