# Source: https://github.com/OpenNMT/OpenNMT-py/issues/632
# Pitfall: the attention module builds nn.Softmax() with no dim and relies on the deprecated implicit choice;
#   the normalised axis then depends on the rank of whatever tensor is passed in rather than on the source axis.
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

    def score(self, h_t, h_s):
        return torch.bmm(self.linear_in(h_t), h_s.transpose(1, 2))

    def forward(self, query, memory_bank, memory_mask=None):
        batch, tgt_len, dim = query.size()
        src_len = memory_bank.size(1)
        align = self.score(query, memory_bank)
        if memory_mask is not None:
            align = align.masked_fill(~memory_mask.unsqueeze(1), -1e9)
        align_vectors = self.sm(align.view(batch * tgt_len, src_len)).view(batch, tgt_len, src_len)
        context = torch.bmm(align_vectors, memory_bank)
        attn_h = self.tanh(self.linear_out(torch.cat([context, query], dim=2)))
        return attn_h, align_vectors


class TinyDecoder(nn.Module):
    def __init__(self, vocab, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.attn = DotAttention(dim)
        self.generator = nn.Linear(dim, vocab)

    def forward(self, tgt, memory_bank, memory_mask):
        dec_out, _ = self.rnn(self.embed(tgt))
        attn_h, _ = self.attn(dec_out, memory_bank, memory_mask)
        return self.generator(attn_h)


def train_step(decoder, optimizer, tgt_in, tgt_out, memory_bank, memory_mask, pad_idx=0):
    decoder.train()
    logits = decoder(tgt_in, memory_bank, memory_mask)
    loss = nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1), ignore_index=pad_idx)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(decoder.parameters(), 5.0)
    optimizer.step()
    return loss.item()
