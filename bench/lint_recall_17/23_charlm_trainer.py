"""Character language model trainer with truncated BPTT and a held-out perplexity check."""
import math

import torch
from torch import nn


class LanguageModelTrainer:
    def __init__(self, model, corpus, dictionary, sequence_length=250, lr=20.0):
        self.model = model
        self.corpus = corpus
        self.dictionary = dictionary
        self.sequence_length = sequence_length
        self.loss_function = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    @staticmethod
    def _get_batch(source, i, sequence_length):
        seq_len = min(sequence_length, len(source) - 1 - i)
        return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)

    @staticmethod
    def _repackage_hidden(h):
        return tuple(v.detach() for v in h)

    def train_split(self, data, batch_size):
        self.model.train()
        hidden = self.model.init_hidden(batch_size)
        ntokens = len(self.dictionary)
        for i in range(0, data.size(0) - 1, self.sequence_length):
            x, targets = self._get_batch(data, i, self.sequence_length)
            hidden = self._repackage_hidden(hidden)
            self.optimizer.zero_grad()
            output, hidden = self.model(x, hidden)
            loss = self.loss_function(output.view(-1, ntokens), targets)
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 0.25)
            self.optimizer.step()

    def evaluate(self, data_source, eval_batch_size=10):
        self.model.eval()
        total_loss = 0.0
        ntokens = len(self.dictionary)
        hidden = self.model.init_hidden(eval_batch_size)
        for i in range(0, data_source.size(0) - 1, self.sequence_length):
            data, targets = self._get_batch(data_source, i, self.sequence_length)
            prediction, hidden = self.model.forward(data, hidden)  # expect: validation-in-train-mode
            output_flat = prediction.view(-1, ntokens)
            total_loss += len(data) * self.loss_function(output_flat, targets).item()
            hidden = self._repackage_hidden(hidden)
        return math.exp(total_loss / len(data_source))
