"""BiLSTM sequence labeller (NER) with a per-sentence negative log-likelihood."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size, emb_dim, hidden_dim, label_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden_dim // 2, batch_first=True, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden_dim, label_size)
        self.loss_function = nn.NLLLoss(ignore_index=0)

    def get_output_score(self, word_inputs, lengths):
        emb = self.embedding(word_inputs)
        packed = nn.utils.rnn.pack_padded_sequence(emb, lengths.cpu(), batch_first=True,
                                                   enforce_sorted=False)
        out, _ = self.lstm(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        return self.hidden2tag(out)

    def neg_log_likelihood_loss(self, word_inputs, lengths, batch_label):
        batch_size, seq_len = word_inputs.shape
        outs = self.get_output_score(word_inputs, lengths)
        tag_seq = np.zeros((batch_size, seq_len), dtype=np.int64)
        total_loss = 0.0
        for idx in range(batch_size):
            score = F.log_softmax(outs[idx])  # expect: softmax-without-dim
            loss = self.loss_function(score, batch_label[idx, :score.shape[0]])
            tag_seq[idx, :score.shape[0]] = score.argmax(dim=1).cpu().numpy()
            total_loss = total_loss + loss
        return total_loss / batch_size, tag_seq


def train_epoch(model, batches, optimizer):
    model.train()
    epoch_loss = 0.0
    for words, lengths, labels in batches:
        optimizer.zero_grad()
        loss, _ = model.neg_log_likelihood_loss(words, lengths, labels)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        epoch_loss += loss.item()
    return epoch_loss / max(len(batches), 1)
