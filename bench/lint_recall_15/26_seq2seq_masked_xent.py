"""Batched seq2seq translation with a length-masked cross entropy over padded targets."""
import torch
import torch.nn as nn
from torch.nn import functional


def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = int(sequence_length.max())
    seq_range = torch.arange(max_len, device=sequence_length.device)
    return seq_range.unsqueeze(0) < sequence_length.unsqueeze(1)


def masked_cross_entropy(logits, target, length):
    logits_flat = logits.view(-1, logits.size(-1))
    log_probs_flat = functional.log_softmax(logits_flat)  # expect: softmax-without-dim
    target_flat = target.view(-1, 1)
    losses_flat = -torch.gather(log_probs_flat, dim=1, index=target_flat)
    losses = losses_flat.view(*target.size())
    mask = sequence_mask(length, max_len=target.size(1))
    return (losses * mask.float()).sum() / length.float().sum().clamp(min=1.0)


def train_batch(encoder, decoder, enc_opt, dec_opt, src, src_len, tgt, tgt_len, clip=50.0):
    encoder.train()
    decoder.train()
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    enc_out, hidden = encoder(src, src_len)
    logits = decoder(tgt[:, :-1], hidden, enc_out)
    loss = masked_cross_entropy(logits, tgt[:, 1:], tgt_len - 1)
    loss.backward()
    nn.utils.clip_grad_norm_(encoder.parameters(), clip)
    nn.utils.clip_grad_norm_(decoder.parameters(), clip)
    enc_opt.step()
    dec_opt.step()
    return loss.item()
