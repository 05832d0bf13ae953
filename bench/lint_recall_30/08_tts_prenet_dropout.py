"""Tacotron-style decoder prenet used by a TTS training script."""
import torch
from torch import nn
from torch.nn import functional as F


class LinearNorm(nn.Module):
    def __init__(self, in_dim, out_dim, bias=False):
        super().__init__()
        self.linear_layer = nn.Linear(in_dim, out_dim, bias=bias)
        nn.init.xavier_uniform_(self.linear_layer.weight)

    def forward(self, x):
        return self.linear_layer(x)


class Prenet(nn.Module):
    def __init__(self, in_dim, sizes):
        super().__init__()
        in_sizes = [in_dim] + sizes[:-1]
        self.layers = nn.ModuleList([LinearNorm(i, o) for i, o in zip(in_sizes, sizes)])

    def forward(self, x):
        for linear in self.layers:
            x = F.dropout(F.relu(linear(x)), p=0.5)  # expect: functional-dropout-always-on
        return x


class TinyDecoder(nn.Module):
    def __init__(self, n_mels=80, prenet_dim=256, rnn_dim=512):
        super().__init__()
        self.prenet = Prenet(n_mels, [prenet_dim, prenet_dim])
        self.rnn = nn.LSTMCell(prenet_dim, rnn_dim)
        self.proj = nn.Linear(rnn_dim, n_mels)

    def forward(self, mels):
        b, t, _ = mels.shape
        h = mels.new_zeros(b, self.rnn.hidden_size)
        c = mels.new_zeros(b, self.rnn.hidden_size)
        outs = []
        for i in range(t):
            h, c = self.rnn(self.prenet(mels[:, i]), (h, c))
            outs.append(self.proj(h))
        return torch.stack(outs, 1)
