"""Contextual lemma classifier: an LSTM over word embeddings that picks a lemma for an ambiguous form."""
import logging
import os
from abc import ABC, abstractmethod

import torch
import torch.nn as nn

logger = logging.getLogger("lemma_classifier")


class LemmaClassifier(ABC, nn.Module):
    def __init__(self, label_decoder, target_words):
        super().__init__()
        self.label_decoder = label_decoder
        self.target_words = set(target_words)

    @abstractmethod
    def model_type(self):
        ...

    def get_save_dict(self):
        return {
            "model_type": self.model_type(),
            "params": self.state_dict(),
            "label_decoder": self.label_decoder,
            "target_words": list(self.target_words),
        }

    def save(self, save_name):
        os.makedirs(os.path.dirname(save_name) or ".", exist_ok=True)
        torch.save(self.get_save_dict(), save_name)

    @staticmethod
    def load(filename, args=None):
        try:
            checkpoint = torch.load(filename, lambda storage, loc: storage)  # expect: torch-load-unsafe
        except BaseException:
            logger.exception("Cannot load model from %s", filename)
            raise
        model = LSTMLemmaClassifier(checkpoint["label_decoder"], checkpoint["target_words"])
        model.load_state_dict(checkpoint["params"])
        return model


class LSTMLemmaClassifier(LemmaClassifier):
    def __init__(self, label_decoder, target_words, vocab_size=20000, emb_dim=100, hidden_dim=256):
        super().__init__(label_decoder, target_words)
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.lstm = nn.LSTM(emb_dim, hidden_dim, batch_first=True, bidirectional=True)
        self.output = nn.Linear(2 * hidden_dim, len(label_decoder))

    def model_type(self):
        return "lstm"

    def forward(self, word_ids, target_pos):
        hidden, _ = self.lstm(self.embedding(word_ids))
        return self.output(hidden[torch.arange(hidden.size(0)), target_pos])


if __name__ == "__main__":
    clf = LSTMLemmaClassifier({"be": 0, "have": 1}, ["'s"])
    clf.save("saved_models/lemma/en_lstm.pt")
    restored = LemmaClassifier.load("saved_models/lemma/en_lstm.pt")
    print(restored(torch.randint(0, 20000, (2, 7)), torch.tensor([1, 3])).shape)
