"""Sentence encoder (BiLSTM max-pool) with a batched encode() used for downstream probing tasks."""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable


class BLSTMEncoder(nn.Module):
    def __init__(self, word_emb_dim=300, enc_lstm_dim=2048, bsize=64):
        super().__init__()
        self.bsize = bsize
        self.word_emb_dim = word_emb_dim
        self.enc_lstm = nn.LSTM(word_emb_dim, enc_lstm_dim, 1, bidirectional=True)
        self.word_vec = {}

    def forward(self, sent_tuple):
        sent, sent_len = sent_tuple
        sorted_len, idx_sort = torch.sort(sent_len, descending=True)
        sent = sent.index_select(1, idx_sort)
        packed = nn.utils.rnn.pack_padded_sequence(sent, sorted_len.cpu())
        sent_output = nn.utils.rnn.pad_packed_sequence(self.enc_lstm(packed)[0])[0]
        idx_unsort = torch.argsort(idx_sort)
        sent_output = sent_output.index_select(1, idx_unsort)
        return torch.max(sent_output, 0)[0]

    def get_batch(self, batch):
        embed = np.zeros((len(batch[0]), len(batch), self.word_emb_dim), dtype=np.float32)
        for i, sent in enumerate(batch):
            for j, word in enumerate(sent):
                embed[j, i, :] = self.word_vec[word]
        return torch.from_numpy(embed)

    def encode(self, sentences, device="cuda"):
        self.eval()
        lengths = np.array([len(s) for s in sentences])
        idx_sort = np.argsort(-lengths)
        sentences = [sentences[i] for i in idx_sort]
        embeddings = []
        for stidx in range(0, len(sentences), self.bsize):
            batch = Variable(self.get_batch(sentences[stidx:stidx + self.bsize]), volatile=True)  # expect: volatile-variable
            batch = batch.to(device)
            lens = torch.from_numpy(lengths[idx_sort][stidx:stidx + self.bsize])
            embeddings.append(self.forward((batch, lens)).data.cpu().numpy())
        embeddings = np.vstack(embeddings)
        return embeddings[np.argsort(idx_sort)]
