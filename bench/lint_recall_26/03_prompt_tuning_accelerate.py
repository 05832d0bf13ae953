"""Prompt-tuning loop with accelerate; records a per-step loss log for reporting."""
import logging

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import get_linear_schedule_with_warmup

log = logging.getLogger(__name__)


def train_prompt(model, train_dataset, collate_fn, num_epochs=3, lr=3e-2, batch_size=8, accumulate_steps=1, fp16=False):
    accelerator = Accelerator(
        gradient_accumulation_steps=accumulate_steps,
        mixed_precision="fp16" if fp16 else "no",
    )
    train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, collate_fn=collate_fn)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    lr_scheduler = get_linear_schedule_with_warmup(
        optimizer, num_warmup_steps=0, num_training_steps=len(train_loader) * num_epochs)
    model, optimizer, train_loader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_loader, lr_scheduler)

    step_loss_log = {}
    step_count = 0
    for epoch in range(num_epochs):
        model.train()
        total_loss = 0.0
        for batch in train_loader:
            with accelerator.accumulate(model):
                outputs = model(**batch)
                loss = outputs.loss
                total_loss += loss.detach().float().item()
                accelerator.backward(loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
                step_loss_log[step_count] = loss  # expect: running-loss-keeps-graph
                step_count += 1
        log.info("epoch %d mean loss %.4f", epoch, total_loss / max(len(train_loader), 1))

    for step, loss_val in step_loss_log.items():
        log.debug("step %d loss %s", step, loss_val)
    return accelerator.unwrap_model(model), step_loss_log
