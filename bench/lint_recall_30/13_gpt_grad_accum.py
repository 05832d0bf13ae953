"""Minimal GPT pretraining loop with gradient accumulation and mixed precision."""
import torch
from contextlib import nullcontext

batch_size = 12
block_size = 1024
gradient_accumulation_steps = 5 * 8
max_iters = 600000
grad_clip = 1.0
device = "cuda"
ctx = torch.amp.autocast(device_type="cuda", dtype=torch.bfloat16) if device == "cuda" else nullcontext()


def get_batch(data):
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x.to(device), y.to(device)


def train(model, optimizer, data):
    model.train()
    X, Y = get_batch(data)
    for it in range(max_iters):
        for micro_step in range(gradient_accumulation_steps):
            with ctx:
                logits, loss = model(X, Y)  # expect: accumulation-not-averaged
            X, Y = get_batch(data)
            loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if it % 10 == 0:
            print(f"iter {it}: loss {loss.item():.4f}")
