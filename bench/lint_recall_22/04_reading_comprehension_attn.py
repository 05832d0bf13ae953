"""Span-prediction layers for a document reader (start/end pointer over paragraph tokens)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SeqAttnMatch(nn.Module):
    """Attend each paragraph token over question tokens."""

    def __init__(self, input_size):
        super().__init__()
        self.linear = nn.Linear(input_size, input_size)

    def forward(self, x, y, y_mask):
        x_proj = F.relu(self.linear(x))
        y_proj = F.relu(self.linear(y))
        scores = x_proj.bmm(y_proj.transpose(2, 1))
        y_mask = y_mask.unsqueeze(1).expand(scores.size())
        scores = scores.masked_fill(y_mask, -1e9)
        alpha = F.softmax(scores, dim=-1)
        return alpha.bmm(y)


class BilinearSeqAttn(nn.Module):
    """Score every paragraph token as the start (or end) of the answer span."""

    def __init__(self, x_size, y_size):
        super().__init__()
        self.linear = nn.Linear(y_size, x_size)

    def forward(self, x, y, x_mask):
        # x: batch * len * hdim, y: batch * hdim
        Wy = self.linear(y)
        xWy = x.bmm(Wy.unsqueeze(2)).squeeze(2)
        xWy = xWy.masked_fill(x_mask, -1e9)
        if self.training:
            # log-probabilities for the NLL loss
            return F.log_softmax(xWy)  # expect: softmax-without-dim
        return F.softmax(xWy, dim=1)


class SpanReader(nn.Module):
    def __init__(self, vocab_size, emb_dim=300, hidden=128):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.match = SeqAttnMatch(emb_dim)
        self.doc_rnn = nn.LSTM(emb_dim * 2, hidden, batch_first=True, bidirectional=True)
        self.q_rnn = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.start_attn = BilinearSeqAttn(2 * hidden, 2 * hidden)
        self.end_attn = BilinearSeqAttn(2 * hidden, 2 * hidden)

    def forward(self, doc, doc_mask, q, q_mask):
        d_emb, q_emb = self.embedding(doc), self.embedding(q)
        d_in = torch.cat([d_emb, self.match(d_emb, q_emb, q_mask)], dim=2)
        d_hid, _ = self.doc_rnn(d_in)
        q_hid, _ = self.q_rnn(q_emb)
        q_vec = q_hid.mean(1)
        return self.start_attn(d_hid, q_vec, doc_mask), self.end_attn(d_hid, q_vec, doc_mask)


def update(model, optimizer, batch):
    model.train()
    doc, doc_mask, q, q_mask, start, end = batch
    score_s, score_e = model(doc, doc_mask, q, q_mask)
    loss = F.nll_loss(score_s, start) + F.nll_loss(score_e, end)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
    optimizer.step()
    return loss.item()
