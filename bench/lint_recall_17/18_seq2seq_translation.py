"""GRU encoder-decoder with attention for translation; teacher forcing during training."""
import random

import torch
from torch import nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, embed_size, hidden_size, output_size, dropout=0.2):
        super().__init__()
        self.embed = nn.Embedding(output_size, embed_size)
        self.dropout = nn.Dropout(dropout)
        self.attn = nn.Linear(hidden_size * 2, hidden_size)
        self.gru = nn.GRU(hidden_size + embed_size, hidden_size)
        self.out = nn.Linear(hidden_size * 2, output_size)

    def forward(self, token, last_hidden, encoder_outputs):
        embedded = self.dropout(self.embed(token).unsqueeze(0))  # (1, B, E)
        scores = torch.bmm(encoder_outputs.transpose(0, 1), last_hidden[-1].unsqueeze(2))  # (B, T, 1)
        weights = F.softmax(scores, dim=1)
        context = torch.bmm(weights.transpose(1, 2), encoder_outputs.transpose(0, 1)).transpose(0, 1)
        output, hidden = self.gru(torch.cat([embedded, context], 2), last_hidden)
        output = self.out(torch.cat([output.squeeze(0), context.squeeze(0)], 1))
        output = F.log_softmax(output, dim=1)
        return output, hidden


def train_batch(encoder, decoder, src, trg, optimizer, vocab_size, pad_idx, teacher_forcing=0.5):
    encoder.train()
    decoder.train()
    optimizer.zero_grad()
    encoder_outputs, hidden = encoder(src)
    hidden = hidden[: decoder.gru.num_layers]
    token = trg[0]
    loss = 0.0
    for t in range(1, trg.size(0)):
        output, hidden = decoder(token, hidden, encoder_outputs)
        loss = loss + F.cross_entropy(output, trg[t], ignore_index=pad_idx)  # expect: softmax-before-cross-entropy
        top1 = output.argmax(1)
        token = trg[t] if random.random() < teacher_forcing else top1
    loss = loss / (trg.size(0) - 1)
    loss.backward()
    nn.utils.clip_grad_norm_(list(encoder.parameters()) + list(decoder.parameters()), 10.0)
    optimizer.step()
    return loss.item()
