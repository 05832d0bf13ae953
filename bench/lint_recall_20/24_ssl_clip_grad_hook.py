"""Self-supervised pre-training step with AMP and gradient-norm clipping hook."""
import torch
import torch.nn as nn


class ClipGradsHook:
    def __init__(self, max_norm=1.0, norm_type=2.0):
        self.max_norm = max_norm
        self.norm_type = norm_type

    def on_backward(self, task):
        params = [p for p in task.model.parameters() if p.grad is not None]
        torch.nn.utils.clip_grad_norm_(params, max_norm=self.max_norm, norm_type=self.norm_type)  # expect: clip-before-unscale


class SSLTask:
    def __init__(self, model, loss_fn, optimizer, use_amp=True, hooks=()):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.amp_grad_scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
        self.use_amp = use_amp
        self.hooks = list(hooks)

    def train_step(self, views):
        self.model.train()
        self.optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cuda", dtype=torch.float16, enabled=self.use_amp):
            embeddings = [self.model(v) for v in views]
            loss = self.loss_fn(*embeddings)
        self.amp_grad_scaler.scale(loss).backward()
        for hook in self.hooks:
            hook.on_backward(self)
        self.amp_grad_scaler.step(self.optimizer)
        self.amp_grad_scaler.update()
        return loss.detach()


def simclr_loss(z1, z2, temperature=0.1):
    z = nn.functional.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.t() / temperature
    n = z1.size(0)
    sim.fill_diagonal_(-1e4)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return nn.functional.cross_entropy(sim, targets)
