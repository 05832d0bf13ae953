"""PHASEN-style speech-enhancement net (amplitude-mask stream + phase stream on the STFT, GRU over frames) trained with the "Mix" loss (power-compressed magnitude MSE + compressed complex MSE) whose estimated magnitude is sqrt(re^2 + im^2) without an epsilon: bins that are exactly zero -- the zero padding behind shorter utterances -- give sqrt'(0) = inf, the gradient becomes NaN and the weights are destroyed on the first batch.

Source: https://github.com/huyanxin/phasen/issues/11 (Fix Nan loss)
Report: "I got 'Nan' when use Mix loss to train" (a grad-clip workaround was proposed); the
maintainer: "I think nan caused by other part ... I add eps in mixed loss, you can try it"
(commit 929fa46). The repo's loss computes est_mag_spec = torch.sqrt(est_re**2 + est_im**2),
compresses it with **0.3 and builds amp_loss + phase_loss from it. Reproduced with that loss and
the repo's estimate est_spec = |noisy| * amplitude_mask * unit_phase (so a silent input bin gives
an exactly-zero estimate), a small two-stream model (conv + BN + ReLU amplitude stream, conv
phase stream normalised to unit length, bidirectional GRU and sigmoid FC mask), Adam lr 1e-3, on
synthetic 8 kHz "speech" (voiced harmonic segments with moving pitch and formants) mixed with
coloured noise, utterances of 0.5-0.8 s zero-padded to the batch length. The printed loss is the
Mix loss of the last batch, `acc` the share of held-out utterances whose power-compressed
magnitude spectrum the model brings closer to the clean one than the noisy input is.

expect: unstable-op
symptom: nonfinite
batch: 8
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SR, MAXLEN, NFFT, HOP = 8000, 6400, 256, 64
FEAT = NFFT // 2 + 1
window = torch.hann_window(NFFT)


def synth_utterance():
    n = int(SR * (0.5 + 0.3 * torch.rand(1)))
    t = torch.arange(n) / SR
    f0 = 110 + 120 * torch.rand(1) + 30 * torch.sin(2 * math.pi * 2 * torch.rand(1) * t)
    phase = 2 * math.pi * torch.cumsum(f0.expand(n) / SR, 0)
    x = sum(torch.sin(k * phase) / k for k in range(1, 12))
    env = (torch.sin(2 * math.pi * (1.5 + 2 * torch.rand(1)) * t) > -0.2).float()
    env = F.avg_pool1d(env[None, None], 81, 1, 40)[0, 0]
    speech = 0.3 * x * env
    noise = F.avg_pool1d(torch.randn(1, 1, n), 3, 1, 1)[0, 0] * (0.05 + 0.1 * torch.rand(1))
    out_clean, out_noisy = torch.zeros(MAXLEN), torch.zeros(MAXLEN)
    out_clean[:n], out_noisy[:n] = speech, speech + noise        # zero padding after the utterance
    return out_noisy, out_clean


def batch(n):
    pairs = [synth_utterance() for _ in range(n)]
    return torch.stack([p[0] for p in pairs]), torch.stack([p[1] for p in pairs])


def stft(x):
    s = torch.stft(x, NFFT, HOP, window=window, return_complex=True)
    return torch.cat([s.real, s.imag], 1)                        # [B, 2F, T] like ConvSTFT


class PHASENLite(nn.Module):
    def __init__(self, ch=8, rnn=64):
        super().__init__()
        self.amp_conv = nn.Sequential(nn.Conv2d(2, ch, (7, 1), padding=(3, 0)), nn.BatchNorm2d(ch), nn.ReLU())
        self.phase_conv = nn.Sequential(nn.Conv2d(2, ch, (3, 5), padding=(1, 2)), nn.Conv2d(ch, 2, 1))
        self.rnn = nn.GRU(FEAT * ch, rnn, batch_first=True, bidirectional=True)
        self.fcs = nn.Sequential(nn.Linear(2 * rnn, 256), nn.ReLU(), nn.Linear(256, FEAT), nn.Sigmoid())

    def forward(self, wav):
        cmp = stft(wav)
        cmp = torch.stack([cmp[:, :FEAT], cmp[:, FEAT:]], 1)      # [B, 2, F, T]
        amp = torch.sqrt(cmp[:, 0] ** 2 + cmp[:, 1] ** 2)          # input magnitude (no grad needed)
        a = self.amp_conv(cmp).permute(0, 3, 1, 2).flatten(2)      # [B, T, C*F]
        mask = self.fcs(self.rnn(a)[0]).transpose(1, 2)            # [B, F, T]
        ph = self.phase_conv(cmp)
        ph = ph / (torch.sqrt(ph[:, 0] ** 2 + ph[:, 1] ** 2) + 1e-8).unsqueeze(1)
        est = (amp * mask).unsqueeze(1) * ph
        return torch.cat([est[:, 0], est[:, 1]], 1)


def mix_loss(est_cspec, clean):
    d = est_cspec.shape[1]
    gth_cspec = stft(clean)
    gth_mag = torch.sqrt(gth_cspec[:, :FEAT] ** 2 + gth_cspec[:, FEAT:] ** 2)
    est_mag = torch.sqrt(est_cspec[:, :FEAT] ** 2 + est_cspec[:, FEAT:] ** 2)
    gth_cprs, est_cprs = gth_mag ** 0.3, est_mag ** 0.3
    amp_loss = F.mse_loss(gth_cprs, est_cprs) * d
    coff = (gth_cprs / (1e-8 + gth_mag)).repeat(1, 2, 1)
    phase_loss = F.mse_loss(gth_cspec * coff, est_cspec * coff) * d
    return 0.5 * amp_loss + 0.5 * phase_loss


model = PHASENLite()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(40):
    noisy, clean = batch(8)
    loss = mix_loss(model(noisy), clean)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step} mix loss {loss.item():.4f}")

model.eval()
noisy, clean = batch(32)
with torch.no_grad():
    ref = stft(clean)
    ref_c = (ref[:, :FEAT] ** 2 + ref[:, FEAT:] ** 2).pow(0.15)
    def cprs_err(spec):
        return ((spec[:, :FEAT] ** 2 + spec[:, FEAT:] ** 2).pow(0.15) - ref_c).pow(2).mean((1, 2))
    better = cprs_err(model(noisy)) < cprs_err(stft(noisy))
acc = better.float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
