"""Simple sequence tagger: per-token class probabilities and a masked loss."""
from typing import Dict, Optional

import torch
import torch.nn.functional as F
from torch import nn


class SimpleTagger(nn.Module):
    def __init__(self, vocab_size: int, num_classes: int, emb_dim: int = 50, hidden: int = 100):
        super().__init__()
        self.num_classes = num_classes
        self.embedder = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.encoder = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.tag_projection_layer = nn.Linear(2 * hidden, num_classes)

    def forward(self, tokens: torch.Tensor, tags: Optional[torch.Tensor] = None) -> Dict[str, torch.Tensor]:
        mask = tokens != 0
        embedded = self.embedder(tokens)
        encoded, _ = self.encoder(embedded)
        batch_size, sequence_length, _ = encoded.size()

        logits = self.tag_projection_layer(encoded)
        reshaped_log_probs = logits.view(-1, self.num_classes)
        class_probabilities = F.softmax(reshaped_log_probs).view(  # expect: softmax-without-dim
            batch_size, sequence_length, self.num_classes
        )
        output = {"logits": logits, "class_probabilities": class_probabilities}

        if tags is not None:
            token_loss = F.cross_entropy(reshaped_log_probs, tags.view(-1), reduction="none")
            flat_mask = mask.view(-1).float()
            output["loss"] = (token_loss * flat_mask).sum() / flat_mask.sum().clamp(min=1.0)
        return output


def train(model, batches, epochs=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for tokens, tags in batches:
            optimizer.zero_grad()
            out = model(tokens, tags)
            out["loss"].backward()
            optimizer.step()
            running += out["loss"].item()
        print(f"epoch {epoch}: {running / max(len(batches), 1):.4f}")


if __name__ == "__main__":
    data = [(torch.randint(1, 200, (8, 12)), torch.randint(0, 9, (8, 12))) for _ in range(10)]
    train(SimpleTagger(200, 9), data)
