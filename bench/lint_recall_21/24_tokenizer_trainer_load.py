"""Trainer wrapper for a character-level tokenizer (BiLSTM tagger over characters)."""
import logging

import torch
import torch.nn as nn
import torch.optim as optim

logger = logging.getLogger("tokenize")


class Tokenizer(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden_dim=64, num_tags=5, dropout=0.33):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.rnn = nn.LSTM(emb_dim, hidden_dim, num_layers=2, bidirectional=True, batch_first=True, dropout=dropout)
        self.dropout = nn.Dropout(dropout)
        self.tok_clf = nn.Linear(2 * hidden_dim, num_tags)

    def forward(self, units):
        hidden, _ = self.rnn(self.dropout(self.embeddings(units)))
        return self.tok_clf(self.dropout(hidden))


class Trainer:
    def __init__(self, args=None, vocab=None, lexicon=None, model_file=None, device="cpu"):
        self.device = device
        if model_file is not None:
            self.load(model_file)
        else:
            self.args, self.vocab, self.lexicon = args, vocab, lexicon
            self.model = Tokenizer(len(vocab))
        self.model.to(device)
        self.criterion = nn.CrossEntropyLoss(ignore_index=-1)
        self.optimizer = optim.Adam(self.model.parameters(), lr=self.args.get("lr0", 2e-3), betas=(0.9, 0.9))

    def update(self, units, labels):
        self.model.train()
        units, labels = units.to(self.device), labels.to(self.device)
        pred = self.model(units)
        loss = self.criterion(pred.view(-1, pred.size(-1)), labels.view(-1))
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.args.get("max_grad_norm", 1.0))
        self.optimizer.step()
        return loss.item()

    def save(self, filename):
        params = {
            "model": self.model.state_dict(),
            "vocab": self.vocab,
            "lexicon": list(self.lexicon),
            "config": self.args,
        }
        torch.save(params, filename)
        logger.info("Model saved to %s", filename)

    def load(self, filename):
        try:
            checkpoint = torch.load(filename, lambda storage, loc: storage)  # expect: torch-load-unsafe
        except BaseException:
            logger.error("Cannot load model from %s", filename)
            raise
        self.args = checkpoint["config"]
        self.vocab = checkpoint["vocab"]
        self.lexicon = set(checkpoint["lexicon"])
        self.model = Tokenizer(len(self.vocab))
        self.model.load_state_dict(checkpoint["model"])
