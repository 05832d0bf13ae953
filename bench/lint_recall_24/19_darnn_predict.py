"""Dual-stage attention RNN (DA-RNN) for one-step-ahead forecasting: training and prediction."""
import numpy as np
import torch
from torch import nn


def numpy_to_tvar(x, device):
    return torch.from_numpy(x).float().to(device)


class DARNNWrapper:
    def __init__(self, encoder, decoder, T=10, batch_size=128, lr=1e-3, device="cpu"):
        self.encoder, self.decoder = encoder.to(device), decoder.to(device)
        self.T, self.batch_size, self.device = T, batch_size, device
        self.enc_opt = torch.optim.Adam(encoder.parameters(), lr=lr)
        self.dec_opt = torch.optim.Adam(decoder.parameters(), lr=lr)
        self.loss_func = nn.MSELoss()

    def _windows(self, X, y, idx):
        feats = np.stack([X[i:i + self.T - 1] for i in idx])
        hist = np.stack([y[i:i + self.T - 1] for i in idx])
        target = y[idx + self.T - 1]
        return feats, hist, target

    def train_iteration(self, X, y_history, y_target):
        self.enc_opt.zero_grad()
        self.dec_opt.zero_grad()
        _, input_encoded = self.encoder(numpy_to_tvar(X, self.device))
        y_pred = self.decoder(input_encoded, numpy_to_tvar(y_history, self.device))
        loss = self.loss_func(y_pred.squeeze(-1), numpy_to_tvar(y_target, self.device))
        loss.backward()
        self.enc_opt.step()
        self.dec_opt.step()
        return loss.item()

    def predict(self, X, y, start):
        self.encoder.eval()
        self.decoder.eval()
        n = len(X) - start - self.T + 1
        y_pred = np.zeros(n)
        for b in range(0, n, self.batch_size):
            idx = np.arange(start + b, min(start + b + self.batch_size, start + n))
            feats, hist, _ = self._windows(X, y, idx)
            _, input_encoded = self.encoder(numpy_to_tvar(feats, self.device))  # expect: validation-in-train-mode
            y_pred[b:b + len(idx)] = self.decoder(input_encoded, numpy_to_tvar(hist, self.device)).cpu().detach().numpy().ravel()
        self.encoder.train()
        self.decoder.train()
        return y_pred
