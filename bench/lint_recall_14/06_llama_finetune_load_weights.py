"""Instruction fine-tuning of a from-scratch Llama-style model from a local checkpoint."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def load_pretrained(model_cls, cfg, llama3_weights_path, device):
    model = model_cls(cfg)
    model.load_state_dict(torch.load(llama3_weights_path))  # expect: torch-load-unsafe
    return model.to(device)


def calc_loss_batch(input_batch, target_batch, model, device):
    input_batch, target_batch = input_batch.to(device), target_batch.to(device)
    logits = model(input_batch)
    return nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten(), ignore_index=-100)


@torch.no_grad()
def evaluate(model, loader, device, max_batches=20):
    model.eval()
    losses = []
    for i, (x, y) in enumerate(loader):
        if i >= max_batches:
            break
        losses.append(calc_loss_batch(x, y, model, device).item())
    model.train()
    return sum(losses) / max(len(losses), 1)


def finetune(model_cls, cfg, weights_path, train_ds, val_ds, collate, epochs=2, device="cuda"):
    model = load_pretrained(model_cls, cfg, weights_path, device)
    train_loader = DataLoader(train_ds, batch_size=8, shuffle=True, collate_fn=collate, drop_last=True)
    val_loader = DataLoader(val_ds, batch_size=8, shuffle=False, collate_fn=collate)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.1)
    model.train()
    step = 0
    for epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = calc_loss_batch(x, y, model, device)
            loss.backward()
            optimizer.step()
            step += 1
            if step % 50 == 0:
                print(f"ep {epoch} step {step}: train {loss.item():.3f} val {evaluate(model, val_loader, device):.3f}")
    return model
