"""FID evaluation for a diffusion trainer, using an InceptionV3 feature extractor."""
import math

import numpy as np
import torch
from scipy import linalg
from torch.nn.functional import adaptive_avg_pool2d


class FIDEvaluation:
    def __init__(self, inception_v3, sampler, real_loader, channels=3, num_fid_samples=5000, batch_size=128, device="cuda"):
        self.inception_v3 = inception_v3.to(device)
        self.sampler = sampler
        self.real_loader = real_loader
        self.channels = channels
        self.n_samples = num_fid_samples
        self.batch_size = batch_size
        self.device = device
        self.real_stats = None

    @torch.inference_mode()
    def calculate_inception_features(self, samples):
        if self.channels == 1:
            samples = samples.repeat(1, 3, 1, 1)
        features = self.inception_v3(samples)[0]  # expect: validation-in-train-mode
        if features.size(2) != 1 or features.size(3) != 1:
            features = adaptive_avg_pool2d(features, output_size=(1, 1))
        return features.flatten(1)

    def _stats(self, feats):
        feats = feats.cpu().numpy()
        return np.mean(feats, axis=0), np.cov(feats, rowvar=False)

    def load_or_precalc_dataset_stats(self):
        feats = []
        for real, _ in self.real_loader:
            feats.append(self.calculate_inception_features(real.to(self.device)))
            if sum(f.shape[0] for f in feats) >= self.n_samples:
                break
        self.real_stats = self._stats(torch.cat(feats))

    @torch.inference_mode()
    def fid_score(self):
        if self.real_stats is None:
            self.load_or_precalc_dataset_stats()
        feats = []
        for _ in range(math.ceil(self.n_samples / self.batch_size)):
            fake = self.sampler(batch_size=self.batch_size)
            feats.append(self.calculate_inception_features(fake))
        mu_f, sig_f = self._stats(torch.cat(feats)[: self.n_samples])
        mu_r, sig_r = self.real_stats
        covmean, _ = linalg.sqrtm(sig_f @ sig_r, disp=False)
        return float(((mu_f - mu_r) ** 2).sum() + np.trace(sig_f + sig_r - 2 * covmean.real))
