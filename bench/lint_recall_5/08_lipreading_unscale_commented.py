# Source: https://github.com/k2-fsa/icefall/pull/2081
# Pitfall: in the conformer CTC recipe the scaler.unscale_(optimizer) call is commented out, so
#          clip_grad_norm_(max_norm=1.0) measures and clips the loss-scaled gradients instead of the real ones.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class VisualFrontendCTC(nn.Module):
    def __init__(self, feat=96, vocab=30):
        super().__init__()
        self.proj = nn.Linear(feat, 128)
        layer = nn.TransformerEncoderLayer(128, 4, 256, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 3)
        self.ctc_head = nn.Linear(128, vocab)

    def forward(self, frames):
        return self.ctc_head(self.encoder(self.proj(frames))).log_softmax(-1)


def train_one_epoch(model, batches, optimizer, scheduler, scaler, ctc):
    model.train()
    for batch_idx, (frames, targets, in_lens, tgt_lens) in enumerate(batches):
        frames = frames.cuda()
        with torch.cuda.amp.autocast():
            log_probs = model(frames)
        loss = ctc(log_probs.float().transpose(0, 1), targets, in_lens, tgt_lens)
        scaler.scale(loss).backward()

        # scaler.unscale_(optimizer)

        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # expect: clip-before-unscale
        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        optimizer.zero_grad()
        if batch_idx % 10 == 0:
            print(batch_idx, loss.item(), float(grad_norm))


if __name__ == "__main__":
    net = VisualFrontendCTC().cuda()
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=100, gamma=0.9)
    data = [(torch.randn(2, 50, 96), torch.randint(1, 30, (2, 12)),
             torch.full((2,), 50, dtype=torch.long), torch.full((2,), 12, dtype=torch.long)) for _ in range(20)]
    train_one_epoch(net, data, opt, sched, torch.cuda.amp.GradScaler(), nn.CTCLoss(blank=0, zero_infinity=True))
