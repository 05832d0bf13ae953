"""Seq2seq transformer with a separate generator projection, trained with label-smoothed NLL."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=512):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class Seq2SeqTransformer(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d_model=128, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.src_emb = nn.Embedding(src_vocab, d_model, padding_idx=pad_idx)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model, padding_idx=pad_idx)
        self.pos = PositionalEncoding(d_model)
        self.core = nn.Transformer(d_model, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                   dim_feedforward=256, batch_first=True)
        self.tgt_word_prj = nn.Linear(d_model, tgt_vocab, bias=False)
        self.word_prob_prj = nn.LogSoftmax()  # expect: softmax-without-dim

    def forward(self, src, tgt_in):
        tgt_mask = self.core.generate_square_subsequent_mask(tgt_in.size(1)).to(src.device)
        out = self.core(self.pos(self.src_emb(src)), self.pos(self.tgt_emb(tgt_in)),
                        tgt_mask=tgt_mask,
                        src_key_padding_mask=src.eq(self.pad_idx),
                        tgt_key_padding_mask=tgt_in.eq(self.pad_idx))
        logits = self.tgt_word_prj(out).view(-1, self.tgt_word_prj.out_features)
        return self.word_prob_prj(logits)


def smoothed_nll(log_probs, gold, pad_idx=0, eps=0.1):
    n_class = log_probs.size(1)
    one_hot = torch.zeros_like(log_probs).scatter(1, gold.view(-1, 1), 1)
    one_hot = one_hot * (1 - eps) + (1 - one_hot) * eps / (n_class - 1)
    loss = -(one_hot * log_probs).sum(dim=1)
    non_pad = gold.ne(pad_idx)
    return loss.masked_select(non_pad).mean()


def train_epoch(model, batches, optimizer):
    model.train()
    total = 0.0
    for src, tgt in batches:
        tgt_in, gold = tgt[:, :-1], tgt[:, 1:].reshape(-1)
        optimizer.zero_grad()
        loss = smoothed_nll(model(src, tgt_in), gold)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / max(len(batches), 1)
