"""Vision-language pretraining task: one epoch of training with optional AMP
and gradient accumulation, driven by a task object."""
import logging

import torch


class BaseTask:
    def __init__(self, model, optimizer, scaler=None, accum_grad_iters=1, log_freq=50):
        self.model = model
        self.optimizer = optimizer
        self.scaler = scaler
        self.accum_grad_iters = accum_grad_iters
        self.log_freq = log_freq

    def train_step(self, samples):
        output = self.model(samples)
        return output["loss"]

    def train_epoch(self, epoch, data_loader, iters_per_epoch, cuda_enabled=True):
        use_amp = self.scaler is not None
        optimizer = self.optimizer
        self.model.train()
        for i in range(iters_per_epoch):
            samples = next(data_loader)
            if cuda_enabled:
                samples = {k: (v.cuda(non_blocking=True) if torch.is_tensor(v) else v) for k, v in samples.items()}

            with torch.cuda.amp.autocast(enabled=use_amp):
                loss = self.train_step(samples) / self.accum_grad_iters

            if use_amp:
                self.scaler.scale(loss).backward()
            else:
                loss.backward()

            if (i + 1) % self.accum_grad_iters == 0:
                if use_amp:
                    self.scaler.step(optimizer)
                    self.scaler.update()
                else:
                    optimizer.step()
                    optimizer.zero_grad()  # expect: gradients-never-cleared

            if i % self.log_freq == 0:
                logging.info("epoch %d iter %d loss %.4f lr %.6f", epoch, i,
                             loss.item() * self.accum_grad_iters, optimizer.param_groups[0]["lr"])
