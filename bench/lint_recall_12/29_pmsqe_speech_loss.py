"""Perceptual speech-quality loss used to fine-tune a separation model."""
import math

import torch
import torch.nn as nn


class SingleSrcPMSQE(nn.Module):
    def __init__(self, window_weight=1.0, n_bands=49):
        super().__init__()
        self.window_weight = window_weight
        self.register_buffer("width_of_band_bark", torch.linspace(0.5, 1.5, n_bands))
        self.sqrt_total_width = math.sqrt(n_bands)

    def compute_distortion_tensors(self, ref_loudness, est_loudness):
        r = est_loudness - ref_loudness
        m = 0.25 * torch.min(est_loudness, ref_loudness)
        sym_d = torch.max(r - m, torch.zeros_like(r))
        d_frame = torch.sum(torch.pow(sym_d * self.width_of_band_bark, 2.0), dim=-1, keepdim=True)
        d_frame = torch.sqrt(d_frame) * self.sqrt_total_width  # expect: unguarded-zero
        return d_frame

    def forward(self, est_loudness, ref_loudness, pad_mask):
        d_frame = self.compute_distortion_tensors(ref_loudness, est_loudness)
        per_utt = (d_frame * pad_mask).sum(dim=1) / pad_mask.sum(dim=1).clamp(min=1)
        return self.window_weight * per_utt.mean()


def finetune(separator, loudness_fn, loader, epochs=5, device="cuda"):
    loss_fn = SingleSrcPMSQE().to(device)
    opt = torch.optim.Adam(separator.parameters(), lr=1e-4)
    separator.train()
    for _ in range(epochs):
        for mix, ref in loader:
            mix, ref = mix.to(device), ref.to(device)
            opt.zero_grad()
            est = separator(mix)
            pad_mask = torch.ones(est.shape[0], est.shape[1], 1, device=device)
            loss = loss_fn(loudness_fn(est), loudness_fn(ref), pad_mask)
            loss.backward()
            opt.step()
