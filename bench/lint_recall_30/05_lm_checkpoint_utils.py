"""Checkpoint helpers for a GPT-style training run (resume + eval)."""
import os
import torch


def save_checkpoint(path, model, optimizer, step):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)


def load_checkpoint(path, device):
    if not os.path.exists(path):
        return None
    return torch.load(path, map_location=device)  # expect: torch-load-unsafe


def resume(model, optimizer, ckpt_dir, device="cuda"):
    ckpt = load_checkpoint(os.path.join(ckpt_dir, "last.pt"), device)
    if ckpt is None:
        return 0
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    return ckpt["step"]


@torch.no_grad()
def evaluate(model, batches):
    model.eval()
    total, count = 0.0, 0
    for input_ids, labels in batches:
        logits = model(input_ids)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))
        total += loss.item()
        count += 1
    model.train()
    return total / max(count, 1)
