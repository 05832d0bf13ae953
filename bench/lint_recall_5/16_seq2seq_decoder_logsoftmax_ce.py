# Source: https://github.com/keon/seq2seq/pull/5
# Pitfall: the decoder already returns F.log_softmax over the vocabulary, and the training loop feeds that to
#          F.cross_entropy, which applies log_softmax a second time; the fix switched the loss to F.nll_loss.
# Reproduced in our own words, not the original code.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hid, batch_first=False)

    def forward(self, src):
        _, hidden = self.gru(self.embed(src))
        return hidden


class Decoder(nn.Module):
    def __init__(self, vocab, emb, hid):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hid)
        self.out = nn.Linear(hid, vocab)

    def forward(self, token, hidden):
        out, hidden = self.gru(self.embed(token).unsqueeze(0), hidden)
        return F.log_softmax(self.out(out.squeeze(0)), dim=1), hidden


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab, trg_vocab, emb=64, hid=128):
        super().__init__()
        self.encoder = Encoder(src_vocab, emb, hid)
        self.decoder = Decoder(trg_vocab, emb, hid)
        self.trg_vocab = trg_vocab

    def forward(self, src, trg, teacher_forcing_ratio=0.5):
        max_len, batch = trg.shape
        outputs = torch.zeros(max_len, batch, self.trg_vocab)
        hidden = self.encoder(src)
        token = trg[0]
        for t in range(1, max_len):
            step_out, hidden = self.decoder(token, hidden)
            outputs[t] = step_out
            token = trg[t] if random.random() < teacher_forcing_ratio else step_out.argmax(1)
        return outputs


def train_epoch(model, optimizer, batches, trg_vocab, grad_clip=10.0, pad=1):
    model.train()
    total = 0.0
    for src, trg in batches:
        optimizer.zero_grad()
        output = model(src, trg)
        loss = F.cross_entropy(output[1:].view(-1, trg_vocab), trg[1:].contiguous().view(-1), ignore_index=pad)  # expect: softmax-before-cross-entropy
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        total += loss.item()
    return total / len(batches)


if __name__ == "__main__":
    net = Seq2Seq(500, 600)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    data = [(torch.randint(2, 500, (12, 8)), torch.randint(2, 600, (10, 8))) for _ in range(5)]
    print(train_epoch(net, opt, data, 600))
