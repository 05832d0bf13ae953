# Source: https://github.com/OpenNMT/OpenNMT-py/commit/efcfc1cf10266dc41ed08fe9f7c88bdbff8f94d4
# Pitfall: the generator uses nn.LogSoftmax() and the global attention nn.Softmax() with no dim; the implicit
#   dimension is picked from the input's rank, which for 3-D score tensors normalizes over the wrong axis.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class DotAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_in = nn.Linear(dim, dim, bias=False)
        self.linear_out = nn.Linear(dim * 2, dim, bias=False)
        self.sm = nn.Softmax()  # expect: softmax-without-dim
        self.tanh = nn.Tanh()

    def forward(self, query, memory_bank, memory_mask=None):
        # query: (batch, tgt_len, dim); memory_bank: (batch, src_len, dim)
        scores = torch.bmm(self.linear_in(query), memory_bank.transpose(1, 2))
        if memory_mask is not None:
            scores = scores.masked_fill(~memory_mask.unsqueeze(1), -1e4)
        align = self.sm(scores)
        context = torch.bmm(align, memory_bank)
        return self.tanh(self.linear_out(torch.cat([context, query], dim=-1))), align


def build_generator(dec_dim, vocab_size):
    return nn.Sequential(
        nn.Linear(dec_dim, vocab_size),
        nn.LogSoftmax())  # expect: softmax-without-dim


class Decoder(nn.Module):
    def __init__(self, vocab_size, dim=512):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=1)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.attn = DotAttention(dim)
        self.generator = build_generator(dim, vocab_size)

    def forward(self, tgt, memory_bank, memory_mask, state=None):
        dec_out, state = self.rnn(self.emb(tgt), state)
        attn_out, align = self.attn(dec_out, memory_bank, memory_mask)
        return self.generator(attn_out), state, align


def nll_step(decoder, batch, memory_bank, memory_mask, pad_idx=1):
    log_probs, _, _ = decoder(batch.tgt_in, memory_bank, memory_mask)
    return nn.functional.nll_loss(log_probs.reshape(-1, log_probs.size(-1)),
                                  batch.tgt_out.reshape(-1), ignore_index=pad_idx)
