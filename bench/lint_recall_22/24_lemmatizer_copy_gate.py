"""Character-level seq2seq lemmatizer with a pointer/copy mechanism over the source characters."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CopyDecoderStep(nn.Module):
    def __init__(self, vocab_size, emb_dim=50, hidden_dim=100):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.cell = nn.LSTMCell(emb_dim + hidden_dim, hidden_dim)
        self.attn = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.out = nn.Linear(2 * hidden_dim, vocab_size)
        self.copy_gate = nn.Linear(2 * hidden_dim, 1)

    def forward(self, prev_token, state, ctx_prev, enc_out, src, src_mask):
        h, c = self.cell(torch.cat([self.emb(prev_token), ctx_prev], dim=-1), state)
        scores = torch.bmm(enc_out, self.attn(h).unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(src_mask, -1e9)
        attn = F.softmax(scores, dim=-1)
        ctx = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        feat = torch.cat([h, ctx], dim=-1)

        log_probs = F.log_softmax(self.out(feat), dim=-1)
        copy_logit = self.copy_gate(feat)
        log_copy_prob = F.logsigmoid(copy_logit)
        copied = log_probs.new_zeros(log_probs.shape).scatter_add(1, src, attn)
        zero_mask = copied == 0
        log_copied = torch.log(copied.masked_fill(zero_mask, 1e-12)).masked_fill(zero_mask, -1e12)

        log_nocopy_prob = -torch.log(1 + torch.exp(copy_logit))  # expect: unshifted-logsumexp
        mixed = torch.logsumexp(torch.stack([log_probs + log_nocopy_prob,
                                             log_copied + log_copy_prob]), dim=0)
        return mixed, (h, c), ctx


def sequence_nll(decoder, enc_out, enc_state, src, src_mask, tgt, sos_id=2):
    batch = tgt.size(0)
    state = enc_state
    ctx = enc_out.new_zeros(batch, enc_out.size(-1))
    prev = torch.full((batch,), sos_id, dtype=torch.long, device=tgt.device)
    total = 0.0
    for t in range(tgt.size(1)):
        log_probs, state, ctx = decoder(prev, state, ctx, enc_out, src, src_mask)
        total = total + F.nll_loss(log_probs, tgt[:, t], ignore_index=0)
        prev = tgt[:, t]
    return total / tgt.size(1)
