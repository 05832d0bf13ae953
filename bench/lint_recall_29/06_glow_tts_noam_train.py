"""Glow-TTS training epoch with a Noam learning-rate schedule."""
import torch


class NoamLR(torch.optim.lr_scheduler._LRScheduler):
    def __init__(self, optimizer, warmup_steps=4000, last_epoch=-1):
        self.warmup_steps = float(warmup_steps)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        step = max(self.last_epoch, 1)
        scale = self.warmup_steps ** 0.5 * min(step * self.warmup_steps ** -1.5, step ** -0.5)
        return [base_lr * scale for base_lr in self.base_lrs]


def train_epoch(model, criterion, optimizer, scheduler, loader, cfg, global_step):
    model.train()
    for batch in loader:
        text, text_lens, mel, mel_lens = (t.cuda() for t in batch)
        global_step += 1

        if cfg["noam_schedule"]:
            scheduler.step()  # expect: scheduler-before-optimizer
        optimizer.zero_grad()

        z, logdet, y_mean, y_log_scale, o_dur_log, o_total_dur = model(
            text, text_lens, mel, mel_lens)
        loss_dict = criterion(z, y_mean, y_log_scale, logdet, mel_lens,
                              o_dur_log, o_total_dur, text_lens)
        loss_dict["loss"].backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["grad_clip"])
        optimizer.step()

        if global_step % cfg["print_step"] == 0:
            print(f"step {global_step} loss {loss_dict['loss'].item():.4f} "
                  f"grad_norm {grad_norm:.3f} lr {optimizer.param_groups[0]['lr']:.6f}")
    return global_step
