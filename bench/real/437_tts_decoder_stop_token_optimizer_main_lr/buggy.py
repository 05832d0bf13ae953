"""Text-to-speech style frame decoder with a stop-token head: a GRU reads the previous mel frame and predicts the next one (L1 loss), and a separate "stopnet" (small MLP on the decoder state and the predicted frame) predicts whether the utterance has ended (BCE on the stop target, 1 from the last real frame on). As in the original trainer, the two parts have two Adam optimizers whose learning rates are set each step from a warmup-then-inverse-sqrt schedule -- and the stopnet's optimizer is given the decoder's schedule, whose base rate (1e-3, decaying as 1/sqrt(step) after a short warmup) is far too small for the stop classifier: within the training budget the stop-token loss barely leaves its starting value and the model cannot tell where utterances end.

Source: https://github.com/mozilla/TTS/commit/b2e09f9f58e495cff503359a9e2d13c792e1b62d (larger lr for stop token)
Report: the commit titled "larger lr for stop token" changes the training loop from setting the stop-token optimizer's
learning rate to `current_lr` (the decoder's decayed rate) to `current_lr_st = lr_decay(0.01, current_step,
c.warmup_steps)`. Reproduced with 640 synthetic utterances (8-band "mel" frames from smooth random formant tracks,
20-44 frames, zero-padded to 48), a GRU decoder and a stopnet trained for 9 epochs; the fix gives the stopnet's
schedule a base rate of 1e-2. The printed loss is the held-out stop-token BCE, `acc` the held-out stop-token accuracy
on the frames around each utterance's end (last 4 real frames and first 4 padding frames).

expect: lr-too-low
symptom: loss-above 0.3
batch: 27
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T, NMEL, BASE_LR, STOP_BASE_LR, WARMUP = 48, 8, 1e-3, 1e-3, 60


def make_utterances(n):
    lengths = torch.randint(20, 45, (n,))
    t = torch.arange(T).float()
    freq = 0.15 + 0.25 * torch.rand(n, NMEL, 1)
    phase = 6.28 * torch.rand(n, NMEL, 1)
    mel = torch.sin(freq * t + phase) + 0.5 * torch.cos(0.5 * freq * t - phase)
    mel = mel.transpose(1, 2) * (1 + torch.rand(n, 1, NMEL))
    real = t.unsqueeze(0) < lengths.unsqueeze(1)
    mel = mel * real.unsqueeze(-1)
    stop = (t.unsqueeze(0) >= (lengths - 1).unsqueeze(1)).float()
    return mel, stop, lengths


def lr_decay(init_lr, step, warmup):
    step = max(step, 1)
    return init_lr * warmup ** 0.5 * min(step * warmup ** -1.5, step ** -0.5)


class Decoder(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.gru = nn.GRU(NMEL, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, NMEL)

    def forward(self, prev):
        h, _ = self.gru(prev)
        return h, self.proj(h)


decoder = Decoder()
stopnet = nn.Sequential(nn.Linear(48 + NMEL, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(decoder.parameters(), lr=BASE_LR)
optimizer_st = torch.optim.Adam(stopnet.parameters(), lr=BASE_LR)

mel_tr, stop_tr, _ = make_utterances(640)
mel_te, stop_te, len_te = make_utterances(256)


def run(mel):
    prev = torch.cat([torch.zeros(mel.size(0), 1, NMEL), mel[:, :-1]], dim=1)
    h, pred = decoder(prev)
    stop_logit = stopnet(torch.cat([h.detach(), pred.detach()], dim=-1)).squeeze(-1)
    return pred, stop_logit


step = 0
for epoch in range(9):
    perm = torch.randperm(len(mel_tr))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        step += 1
        current_lr = lr_decay(BASE_LR, step, WARMUP)
        current_lr_st = lr_decay(STOP_BASE_LR, step, WARMUP)
        for group in optimizer.param_groups:
            group["lr"] = current_lr
        for group in optimizer_st.param_groups:
            group["lr"] = current_lr_st
        pred, stop_logit = run(mel_tr[idx])
        loss = F.l1_loss(pred, mel_tr[idx])
        stop_loss = F.binary_cross_entropy_with_logits(stop_logit, stop_tr[idx])
        optimizer.zero_grad()
        optimizer_st.zero_grad()
        (loss + stop_loss).backward()
        optimizer.step()
        optimizer_st.step()
    print(f"epoch {epoch} mel l1 {loss.item():.4f} stop bce {stop_loss.item():.4f}")

with torch.no_grad():
    pred, stop_logit = run(mel_te)
    stop_bce = F.binary_cross_entropy_with_logits(stop_logit, stop_te).item()
    t = torch.arange(T).unsqueeze(0)
    near_end = ((t >= (len_te - 4).unsqueeze(1)) & (t < (len_te + 4).unsqueeze(1))).float()
    hit = ((stop_logit > 0).float() == stop_te).float()
    acc = ((hit * near_end).sum() / near_end.sum()).item()
    print(f"held-out mel l1 {F.l1_loss(pred, mel_te).item():.4f}")
print(f"final_loss={stop_bce:.6g} acc={acc:.4f}")
