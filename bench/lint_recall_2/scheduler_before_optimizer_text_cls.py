# Source: https://github.com/ThilinaRajapakse/pytorch-transformers-classification/issues/21
# Pitfall: In the accumulation branch of train(), scheduler.step() is called before optimizer.step(); from PyTorch 1.1 on this skips the first learning-rate value of the warmup schedule.
# Reproduced in our own words, not the original code.
import torch
from transformers import get_linear_schedule_with_warmup


def train(model, train_dataloader, epochs=1, grad_accum=1, lr=4e-5, warmup_steps=0, max_grad_norm=1.0):
    t_total = len(train_dataloader) // grad_accum * epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, eps=1e-8)
    scheduler = get_linear_schedule_with_warmup(optimizer, warmup_steps, t_total)
    global_step = 0
    tr_loss = 0.0
    model.zero_grad()
    for _ in range(epochs):
        for step, batch in enumerate(train_dataloader):
            model.train()
            outputs = model(input_ids=batch[0], attention_mask=batch[1], labels=batch[3])
            loss = outputs[0] / grad_accum
            loss.backward()
            tr_loss += loss.item()
            if (step + 1) % grad_accum == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
                scheduler.step()  # expect: scheduler-before-optimizer
                optimizer.step()
                model.zero_grad()
                global_step += 1
    return global_step, tr_loss / max(global_step, 1)
