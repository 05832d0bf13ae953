# Source: https://github.com/pytorch/pytorch/issues/1817
# Pitfall: The Gumbel-softmax trick takes -log(-log(u)) of uniform samples; torch.rand can return exactly
# 0, the inner log gives -inf and the softmax turns into NaN (the suggested fix clamps u first).
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def gumbel_softmax_sample(logits, temperature=1.0):
    u = torch.rand_like(logits)
    gumbel = -torch.log(-torch.log(u))  # expect: unguarded-zero
    return F.softmax((logits + gumbel) / temperature, dim=-1)


def relaxed_step(encoder, decoder, x, optimizer, temperature):
    encoder.train()
    decoder.train()
    optimizer.zero_grad()
    logits = encoder(x)
    code = gumbel_softmax_sample(logits, temperature)
    recon = decoder(code)
    loss = F.binary_cross_entropy_with_logits(recon, x)
    loss.backward()
    optimizer.step()
    return loss.item()
