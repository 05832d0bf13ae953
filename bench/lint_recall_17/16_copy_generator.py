"""Pointer-generator output layer for a summarisation seq2seq model."""
import torch
from torch import nn
import torch.nn.functional as F


class CopyGenerator(nn.Module):
    def __init__(self, hidden_size, vocab_size, pad_idx):
        super().__init__()
        self.linear = nn.Linear(hidden_size, vocab_size)
        self.linear_copy = nn.Linear(hidden_size, 1)
        self.softmax = nn.Softmax()  # expect: softmax-without-dim
        self.sigmoid = nn.Sigmoid()
        self.pad_idx = pad_idx

    def forward(self, hidden, attn, src_map):
        # hidden: (batch*tlen, h); attn: (batch*tlen, slen); src_map: (slen, batch, cvocab)
        logits = self.linear(hidden)
        prob = self.softmax(logits)
        p_copy = self.sigmoid(self.linear_copy(hidden))
        out_prob = prob * (1 - p_copy)
        mul_attn = attn * p_copy
        batch = src_map.size(1)
        copy_prob = torch.bmm(mul_attn.view(-1, batch, mul_attn.size(1)).transpose(0, 1), src_map.transpose(0, 1))
        copy_prob = copy_prob.transpose(0, 1).contiguous().view(-1, copy_prob.size(-1))
        return torch.cat([out_prob, copy_prob], 1)


def copy_loss(probs, align, target, unk_idx, vocab_size, eps=1e-20):
    vocab_probs = probs.gather(1, target.unsqueeze(1)).squeeze(1)
    copy_ix = align.unsqueeze(1) + vocab_size
    copy_tok_probs = probs.gather(1, copy_ix).squeeze(1)
    copy_tok_probs[align == unk_idx] = 0
    copy_tok_probs = copy_tok_probs + eps
    return -(copy_tok_probs + vocab_probs).log()


def train_step(decoder, generator, batch, optimizer, unk_idx, vocab_size):
    decoder.train()
    generator.train()
    optimizer.zero_grad()
    hidden, attn = decoder(batch["src"], batch["tgt_in"])
    probs = generator(hidden, attn, batch["src_map"])
    loss = copy_loss(probs, batch["align"], batch["tgt_out"], unk_idx, vocab_size).mean()
    loss.backward()
    optimizer.step()
    return loss.item()
