"""One optimisation step of a conformer-CTC lip-reading recipe with mixed precision."""
import torch
import torch.nn.functional as F
from torch.cuda.amp import GradScaler, autocast


def compute_loss(model, batch, device):
    feats = batch["inputs"].to(device)
    feat_lens = batch["input_lengths"].to(device)
    targets = batch["targets"].to(device)
    target_lens = batch["target_lengths"].to(device)
    log_probs, out_lens = model(feats, feat_lens)
    return F.ctc_loss(log_probs.transpose(0, 1), targets, out_lens, target_lens,
                      reduction="sum", zero_infinity=True) / feats.size(0)


def train_one_epoch(model, optimizer, scheduler, train_dl, device, params):
    scaler = GradScaler(enabled=params.use_fp16)
    model.train()
    for batch_idx, batch in enumerate(train_dl):
        params.batch_idx_train += 1
        with autocast(enabled=params.use_fp16):
            loss = compute_loss(model, batch, device)
        scaler.scale(loss).backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        scheduler.step_batch(params.batch_idx_train)
        optimizer.zero_grad()
        if batch_idx % params.log_interval == 0:
            print(batch_idx, loss.item(), float(grad_norm))
