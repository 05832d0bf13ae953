# Source: https://github.com/rwth-i6/returnn/pull/1595
# Pitfall: with a GradScaler active, the global-norm clipping runs on the still-scaled gradients
#   (no scaler.unscale_ first), so the threshold is effectively divided by the loss scale.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class Updater:
    def __init__(self, model, lr, clip_norm=None, use_amp=True):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.clip_norm = clip_norm
        self.grad_scaler = torch.cuda.amp.GradScaler(enabled=use_amp)

    def backward(self, loss):
        self.grad_scaler.scale(loss).backward()

    def step(self):
        if self.clip_norm is not None:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip_norm)  # expect: clip-before-unscale
        self.grad_scaler.step(self.optimizer)
        self.grad_scaler.update()
        self.optimizer.zero_grad(set_to_none=True)


def train(model, loader, epochs, device="cuda"):
    updater = Updater(model, lr=5e-4, clip_norm=5.0)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    model.train()
    for epoch in range(epochs):
        for feats, feat_lens, labels, label_lens in loader:
            feats = feats.to(device)
            with torch.autocast("cuda", dtype=torch.float16):
                log_probs = model(feats).log_softmax(-1).transpose(0, 1)
            loss = ctc(log_probs.float(), labels, feat_lens, label_lens)
            updater.backward(loss)
            updater.step()
        print("epoch", epoch, "last loss", loss.item())
