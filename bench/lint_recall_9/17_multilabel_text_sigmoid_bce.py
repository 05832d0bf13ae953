# Source: https://github.com/flairNLP/flair/commit/e4f693eda9f4cb7f0131e8e6d734b4fea09385d1
# Pitfall: the multi-label text classifier passes sigmoid(scores) to nn.BCELoss instead of giving the raw
#   scores to BCEWithLogitsLoss; saturated sigmoids make the log terms lose precision and gradients vanish.
# Reproduced in our own words, not the original code.
from typing import List

import torch
import torch.nn as nn


class TagClassifier(nn.Module):
    def __init__(self, embed_dim: int, tags: List[str], multi_label: bool = True, threshold: float = 0.5):
        super().__init__()
        self.tags = tags
        self.multi_label = multi_label
        self.threshold = threshold
        self.decoder = nn.Linear(embed_dim, len(tags))
        nn.init.xavier_uniform_(self.decoder.weight)
        if self.multi_label:
            self.loss_function = nn.BCELoss()
        else:
            self.loss_function = nn.CrossEntropyLoss()

    def forward(self, doc_embeddings: torch.Tensor) -> torch.Tensor:
        return self.decoder(doc_embeddings)

    def _targets_as_multi_hot(self, batch_tags: List[List[str]]) -> torch.Tensor:
        out = torch.zeros(len(batch_tags), len(self.tags))
        for row, names in enumerate(batch_tags):
            for name in names:
                out[row, self.tags.index(name)] = 1.0
        return out

    def _multi_label_loss(self, scores: torch.Tensor, batch_tags: List[List[str]]) -> torch.Tensor:
        squash = nn.Sigmoid()
        return self.loss_function(squash(scores), self._targets_as_multi_hot(batch_tags).to(scores.device))  # expect: sigmoid-before-bce

    def forward_loss(self, doc_embeddings, batch_tags):
        scores = self.forward(doc_embeddings)
        return self._multi_label_loss(scores, batch_tags)


def train(model, batches, epochs=5, lr=0.1):
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        seen, total = 0, 0.0
        for emb, tags in batches:
            optimizer.zero_grad()
            loss = model.forward_loss(emb, tags)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            total += loss.item()
            seen += 1
        print(epoch, total / max(seen, 1))
