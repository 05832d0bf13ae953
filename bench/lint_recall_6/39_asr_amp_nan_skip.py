# Source: https://github.com/espnet/espnet/pull/2362
# Pitfall: when the gradient norm is inf/nan the trainer skips both the optimizer step and scaler.update(),
#   leaving the GradScaler's loss scale stuck and the next iteration failing with "unscale_() has already been called".
# Reproduced in our own words, not the original code.
import math

import torch


class AsrTrainer:
    def __init__(self, model, optimizer, grad_clip=5.0):
        self.model = model
        self.optimizer = optimizer
        self.grad_clip = grad_clip
        self.scaler = torch.cuda.amp.GradScaler()

    def train_one_batch(self, speech, speech_lengths, text, text_lengths):
        self.model.train()
        with torch.cuda.amp.autocast():
            loss = self.model(speech, speech_lengths, text, text_lengths)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        if not math.isfinite(grad_norm.item()):
            print(f"grad norm is {grad_norm.item()}, skipping this batch")
        else:
            self.scaler.step(self.optimizer)
            self.scaler.update()  # expect: scaler-update-missing
        self.optimizer.zero_grad()
        return loss.detach().item()
