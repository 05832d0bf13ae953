# Source: https://github.com/karpathy/nanoGPT/issues/168
# Pitfall: each micro-batch loss is backpropagated without dividing by the number of gradient
#   accumulation steps, so the summed gradient is k times too large and the clip value is off.
# Reproduced in our own words, not the original code.
import math

import torch


def get_lr(it, warmup_iters=2000, lr_decay_iters=600000, learning_rate=6e-4, min_lr=6e-5):
    if it < warmup_iters:
        return learning_rate * it / warmup_iters
    if it > lr_decay_iters:
        return min_lr
    ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (learning_rate - min_lr)


def train(model, get_batch, max_iters, gradient_accumulation_steps=5, grad_clip=1.0, device="cuda"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1)
    scaler = torch.cuda.amp.GradScaler()
    ctx = torch.autocast(device_type="cuda", dtype=torch.float16)
    X, Y = get_batch("train")
    for it in range(max_iters):
        lr = get_lr(it)
        for group in optimizer.param_groups:
            group["lr"] = lr
        for micro_step in range(gradient_accumulation_steps):
            with ctx:
                logits, loss = model(X, Y)
            X, Y = get_batch("train")
            scaler.scale(loss).backward()  # expect: accumulation-not-averaged
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        if it % 100 == 0:
            print(f"iter {it}: loss {loss.item():.4f} lr {lr:.2e}")
