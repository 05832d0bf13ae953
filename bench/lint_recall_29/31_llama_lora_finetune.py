"""LoRA fine-tuning loop (instruction tuning) with gradient accumulation."""
import torch
import lightning as L

micro_batch_size = 4
batch_size = 128
gradient_accumulation_iters = batch_size // micro_batch_size
max_iters = 20000
eval_interval = 100


def loss_fn(logits, targets):
    logits = logits[..., :-1, :].contiguous()
    targets = targets[..., 1:].contiguous()
    return torch.nn.functional.cross_entropy(
        logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)


@torch.no_grad()
def validate(fabric, model, val_batches):
    model.eval()
    losses = torch.zeros(len(val_batches))
    for k, (input_ids, targets) in enumerate(val_batches):
        logits = model(input_ids)
        losses[k] = loss_fn(logits, targets).item()
    model.train()
    return losses.mean().item()


def train(fabric: L.Fabric, model, optimizer, get_batch, val_batches):
    model.train()
    step_count = 0
    for iter_num in range(max_iters):
        input_ids, targets = get_batch()
        logits = model(input_ids)
        loss = loss_fn(logits, targets)
        fabric.backward(loss)  # expect: accumulation-not-averaged

        if (iter_num + 1) % gradient_accumulation_iters == 0:
            optimizer.step()
            optimizer.zero_grad()
            step_count += 1
            if step_count % eval_interval == 0:
                val_loss = validate(fabric, model, val_batches)
                fabric.print(f"step {step_count}: val loss {val_loss:.4f}")
        if iter_num % 100 == 0:
            fabric.print(f"iter {iter_num}: loss {loss.item():.4f}")
