# Source: https://github.com/pytorch/examples/issues/1196
# Pitfall: The DDP minGPT trainer clips gradients with clip_grad_norm_ right after scaler.scale(loss).backward() without scaler.unscale_(optimizer) first, so the threshold is compared against gradients multiplied by the loss scale and clipping is far too aggressive.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


class GPTTrainer:
    def __init__(self, model, optimizer, train_loader, grad_norm_clip=1.0, use_amp=True):
        self.model = model
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.grad_norm_clip = grad_norm_clip
        self.scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
        self.use_amp = use_amp

    def _run_batch(self, source, targets):
        with torch.autocast(device_type="cuda", dtype=torch.float16, enabled=self.use_amp):
            logits = self.model(source)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_norm_clip)  # expect: clip-before-unscale
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()

    def run_epoch(self, epoch):
        self.model.train()
        for it, (source, targets) in enumerate(self.train_loader):
            source = source.cuda()
            targets = targets.cuda()
            batch_loss = self._run_batch(source, targets)
            if it % 100 == 0:
                print(f"epoch {epoch} iter {it} loss {batch_loss:.5f}")
