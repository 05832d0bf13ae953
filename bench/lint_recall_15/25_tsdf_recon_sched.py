"""Training driver of a coarse-to-fine TSDF reconstruction network with a multi-step LR schedule."""
import time

import torch


def train_sample(model, optimizer, sample, grad_clip):
    model.train()
    optimizer.zero_grad()
    outputs, loss_dict = model(sample)
    loss = loss_dict["total_loss"]
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    optimizer.step()
    return loss.item()


def train(model, train_loader, cfg, logger, start_epoch=0):
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=cfg.LR, betas=(0.9, 0.999), weight_decay=cfg.WD)
    milestones = [int(e) for e in cfg.LREPOCHS.split(":")[0].split(",")]
    lr_gamma = 1 / float(cfg.LREPOCHS.split(":")[1])
    lr_scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones, gamma=lr_gamma)

    for epoch_idx in range(start_epoch, cfg.EPOCHS):
        logger.info(f"Epoch {epoch_idx}:")
        lr_scheduler.step()  # expect: scheduler-before-optimizer
        train_loader.dataset.epoch = epoch_idx
        for batch_idx, sample in enumerate(train_loader):
            start = time.time()
            loss = train_sample(model, optimizer, sample, cfg.GRAD_CLIP)
            if batch_idx % cfg.LOG_FREQ == 0:
                logger.info(f"epoch {epoch_idx} iter {batch_idx}/{len(train_loader)} "
                            f"loss {loss:.4f} time {time.time() - start:.2f}")
        torch.save({"epoch": epoch_idx, "model": model.state_dict(),
                    "optimizer": optimizer.state_dict()}, f"model_{epoch_idx:06d}.ckpt")
