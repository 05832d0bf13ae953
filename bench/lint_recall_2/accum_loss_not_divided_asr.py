# Source: https://github.com/hirofumi0810/neural_sp/issues/168
# Pitfall: The ASR trainer accumulates gradients over accum_grad_n_steps batches but back-propagates the full loss each time instead of loss / accum_grad_n_steps, so the effective gradient (and learning rate) grows with the number of accumulation steps.
# Reproduced in our own words, not the original code.
import torch


def train_epoch(model, optimizer, train_set, accum_grad_n_steps=4, clip_grad_norm=5.0):
    model.train()
    optimizer.zero_grad()
    n_accum = 0
    for batch in train_set:
        loss, observation = model(batch)
        loss.backward()  # expect: accumulation-not-averaged
        loss_value = loss.item()
        n_accum += 1
        if n_accum >= accum_grad_n_steps:
            if clip_grad_norm > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad_norm)
            optimizer.step()
            optimizer.zero_grad()
            n_accum = 0
        if observation is not None:
            observation["loss"] = loss_value
