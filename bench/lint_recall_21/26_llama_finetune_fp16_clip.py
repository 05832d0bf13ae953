"""Fine-tune a causal LM with optional fp16 autocast, gradient accumulation and gradient clipping."""
import contextlib

import torch
from tqdm import tqdm


def train(model, train_dataloader, optimizer, lr_scheduler, gradient_accumulation_steps, train_config, device):
    scaler = torch.cuda.amp.GradScaler() if train_config.use_fp16 else None
    autocast = torch.cuda.amp.autocast if train_config.use_fp16 else contextlib.nullcontext
    train_loss = []
    for epoch in range(train_config.num_epochs):
        model.train()
        total_loss = 0.0
        total_length = len(train_dataloader) // gradient_accumulation_steps
        pbar = tqdm(colour="blue", desc=f"Training Epoch: {epoch + 1}", total=total_length, dynamic_ncols=True)
        for step, batch in enumerate(train_dataloader):
            batch = {k: v.to(device) for k, v in batch.items()}
            with autocast():
                loss = model(**batch).loss
            total_loss += loss.detach().float()
            loss = loss / gradient_accumulation_steps
            if train_config.use_fp16:
                # if fp16 is enabled, use the gradient scaler for the update
                scaler.scale(loss).backward()
                if train_config.gradient_clipping > 0.0:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), train_config.gradient_clipping)  # expect: clip-before-unscale
                if (step + 1) % gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
                    scaler.step(optimizer)
                    scaler.update()
                    optimizer.zero_grad()
                    pbar.update(1)
            else:
                loss.backward()
                if (step + 1) % gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
                    if train_config.gradient_clipping > 0.0:
                        torch.nn.utils.clip_grad_norm_(model.parameters(), train_config.gradient_clipping)
                    optimizer.step()
                    optimizer.zero_grad()
                    pbar.update(1)
            pbar.set_description(
                f"Training Epoch: {epoch + 1}/{train_config.num_epochs}, step {step}, loss: {loss.detach().float():.4f}")
        pbar.close()
        epoch_loss = total_loss / len(train_dataloader)
        train_loss.append(float(epoch_loss))
        lr_scheduler.step()
        print(f"Epoch {epoch + 1}: train_perplexity={torch.exp(epoch_loss):.4f}, train_epoch_loss={epoch_loss:.4f}")
    return train_loss
