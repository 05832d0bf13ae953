# Source: https://github.com/facebookresearch/InferSent/issues/87
# Pitfall: the sentence encoder's encode() builds each batch as Variable(batch, volatile=True) to skip
#          autograd; the flag has had no effect since 0.4, so encoding big corpora builds graphs for nothing.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


class MaxPoolBiLSTM(nn.Module):
    def __init__(self, word_dim=300, enc_dim=256):
        super().__init__()
        self.enc = nn.LSTM(word_dim, enc_dim, bidirectional=True)

    def forward(self, sent_batch):  # (T, B, word_dim)
        out, _ = self.enc(sent_batch)
        return out.max(dim=0).values

    def encode(self, embedded_sentences, bsize=64):
        self.eval()
        chunks = []
        for stidx in range(0, len(embedded_sentences), bsize):
            batch = torch.from_numpy(np.stack(embedded_sentences[stidx:stidx + bsize], axis=1)).float()
            batch = Variable(batch, volatile=True)  # expect: volatile-variable
            chunks.append(self.forward(batch).data.numpy())
        return np.vstack(chunks)


if __name__ == "__main__":
    model = MaxPoolBiLSTM()
    sents = [np.random.randn(12, 300).astype("float32") for _ in range(200)]
    emb = model.encode(sents)
    print(emb.shape)
