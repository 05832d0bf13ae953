# Source: https://github.com/OpenNMT/OpenNMT-py/commit/fdc6c4386e9935ac95d441489e8adeabe9653eff
# Pitfall: the decoder-state helper used for truncated BPTT calls h.detach() as a bare statement; detach()
#   returns a new tensor, so the stored states stay attached and the next chunk backpropagates into the last.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class RecurrentState:
    def __init__(self, hidden, input_feed):
        self.hidden = hidden if isinstance(hidden, tuple) else (hidden,)
        self.input_feed = input_feed

    @property
    def tensors(self):
        return self.hidden + (self.input_feed,)

    def detach(self):
        for h in self.tensors:
            h.detach()  # expect: tensor-op-result-discarded


class FeedDecoder(nn.Module):
    def __init__(self, vocab, dim=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.cell = nn.LSTMCell(2 * dim, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tgt, state):
        h, c = state.hidden
        feed = state.input_feed
        outputs = []
        for emb_t in self.embed(tgt).unbind(0):
            h, c = self.cell(torch.cat([emb_t, feed], dim=-1), (h, c))
            feed = h
            outputs.append(self.out(h))
        state.hidden, state.input_feed = (h, c), feed
        return torch.stack(outputs), state


def train_batch(decoder, optimizer, tgt, state, trunc_size=20, pad_idx=0):
    criterion = nn.CrossEntropyLoss(ignore_index=pad_idx)
    total = 0.0
    for start in range(0, tgt.size(0) - 1, trunc_size):
        chunk_in = tgt[start:start + trunc_size]
        chunk_out = tgt[start + 1:start + 1 + trunc_size]
        logits, state = decoder(chunk_in[: chunk_out.size(0)], state)
        loss = criterion(logits.reshape(-1, logits.size(-1)), chunk_out.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        state.detach()
    return total
