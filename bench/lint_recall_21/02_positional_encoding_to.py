"""Sinusoidal positional encoding for a constituency-parser style transformer encoder."""
import math

import torch
import torch.nn as nn


class SinusoidalEncoding(nn.Module):
    def __init__(self, model_dim, max_len=512):
        super().__init__()
        self.model_dim = model_dim
        self.max_len = max_len
        self.register_buffer("pe", self.build_table(max_len, model_dim))

    @staticmethod
    def build_table(max_len, model_dim, device=None):
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, model_dim, 2).float() * (-math.log(10000.0) / model_dim))
        pe = torch.zeros(max_len, model_dim)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        if device is not None:
            pe.to(device=device)  # expect: tensor-op-result-discarded
        return pe

    def forward(self, lengths):
        longest = max(lengths)
        if longest > self.max_len:
            self.max_len = longest * 2
            self.pe = self.build_table(self.max_len, self.model_dim, device=self.pe.device)
        return [self.pe[:n] for n in lengths]


class WordEncoder(nn.Module):
    def __init__(self, vocab_size, model_dim=128, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, model_dim)
        self.position = SinusoidalEncoding(model_dim)
        layer = nn.TransformerEncoderLayer(model_dim, heads, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)

    def forward(self, words, lengths):
        emb = self.embed(words)
        pos = nn.utils.rnn.pad_sequence(self.position(lengths), batch_first=True)
        return self.encoder(emb + pos[:, : emb.size(1)])


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc = WordEncoder(5000).to(device)
    words = torch.randint(0, 5000, (4, 700), device=device)
    out = enc(words, [700, 650, 600, 512])
    print(out.shape)
