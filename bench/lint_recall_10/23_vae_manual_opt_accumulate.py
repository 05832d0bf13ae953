# Source: https://github.com/gaozhihan/PreDiff/pull/33
# Pitfall: with manual optimization and accumulate_grad_batches > 1, the autoencoder optimizer is zeroed on
#   every batch although it only steps every k batches, and the loss is not divided by k: the step sees one batch.
# Reproduced in our own words, not the original code.
import torch
import lightning.pytorch as pl


class RadarVAEModule(pl.LightningModule):
    def __init__(self, vae, loss_fn, lr=1e-4, accumulate_grad_batches=4, clip_val=1.0):
        super().__init__()
        self.vae = vae
        self.loss_fn = loss_fn
        self.lr = lr
        self.accumulate_grad_batches = accumulate_grad_batches
        self.clip_val = clip_val
        self.automatic_optimization = False

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.vae.parameters(), lr=self.lr, betas=(0.5, 0.9))
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10_000)
        return [opt], [sched]

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        sch = self.lr_schedulers()
        target = batch.permute(0, 3, 1, 2).contiguous()
        recon, posterior = self.vae(target)
        loss, parts = self.loss_fn(target, recon, posterior, split="train")
        self.log("train/aeloss", loss, prog_bar=True, on_step=True, on_epoch=True)
        self.log_dict(parts, on_step=True, on_epoch=False)
        opt.zero_grad()  # expect: grad-cleared-before-step
        self.manual_backward(loss)  # expect: accumulation-not-averaged
        if (batch_idx + 1) % self.accumulate_grad_batches == 0:
            self.clip_gradients(opt, gradient_clip_val=self.clip_val, gradient_clip_algorithm="norm")
            opt.step()
            sch.step()

    def validation_step(self, batch, batch_idx):
        target = batch.permute(0, 3, 1, 2).contiguous()
        recon, posterior = self.vae(target)
        loss, parts = self.loss_fn(target, recon, posterior, split="val")
        self.log("val/aeloss", loss, prog_bar=True, on_epoch=True, sync_dist=True)
        return loss
