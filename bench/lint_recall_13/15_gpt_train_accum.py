"""Minimal GPT pre-training loop with micro-batch gradient accumulation."""
import torch


def get_lr(it, warmup_iters=200, learning_rate=6e-4):
    if it < warmup_iters:
        return learning_rate * (it + 1) / warmup_iters
    return learning_rate


def train(model, get_batch, max_iters=5000, gradient_accumulation_steps=5, grad_clip=1.0):
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1)
    X, Y = get_batch("train")
    for iter_num in range(max_iters):
        lr = get_lr(iter_num)
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr
        for micro_step in range(gradient_accumulation_steps):
            logits, loss = model(X, Y)
            X, Y = get_batch("train")
            loss.backward()  # expect: accumulation-not-averaged
        if grad_clip != 0.0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if iter_num % 100 == 0:
            print(f"iter {iter_num}: loss {loss.item():.4f}, lr {lr:.2e}")
