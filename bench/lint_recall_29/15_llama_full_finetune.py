"""Full fine-tuning of a LLaMA-style model with Fabric and gradient accumulation."""
import time

import torch
import lightning as L

batch_size = 64
micro_batch_size = 4
gradient_accumulation_iters = batch_size // micro_batch_size
max_iters = 15000
learning_rate = 3e-5
block_size = 512


def get_batch(fabric, data):
    ix = torch.randint(len(data), (micro_batch_size,))
    input_ids = [torch.as_tensor(data[i]["input_ids"][:block_size], dtype=torch.long) for i in ix]
    labels = [torch.as_tensor(data[i]["labels"][:block_size], dtype=torch.long) for i in ix]
    max_len = max(len(s) for s in input_ids)
    x = torch.stack([torch.nn.functional.pad(s, (0, max_len - len(s))) for s in input_ids])
    y = torch.stack([torch.nn.functional.pad(s, (0, max_len - len(s)), value=-1) for s in labels])
    return fabric.to_device((x, y))


def loss_fn(logits, targets):
    logits = logits[..., :-1, :].contiguous()
    targets = targets[..., 1:].contiguous()
    return torch.nn.functional.cross_entropy(
        logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)


def train(fabric: L.Fabric, model, optimizer, train_data):
    model.train()
    step_count = 0
    for iter_num in range(max_iters):
        t0 = time.time()
        is_accumulating = (iter_num + 1) % gradient_accumulation_iters != 0
        input_ids, targets = get_batch(fabric, train_data)
        with fabric.no_backward_sync(model, enabled=is_accumulating):
            logits = model(input_ids)
            loss = loss_fn(logits, targets)
            fabric.backward(loss)  # expect: accumulation-not-averaged
        if not is_accumulating:
            optimizer.step()
            optimizer.zero_grad()
            step_count += 1
        if iter_num % 100 == 0:
            fabric.print(f"iter {iter_num}: loss {loss.item():.4f}, time: {(time.time() - t0) * 1000:.2f}ms")
    return step_count
