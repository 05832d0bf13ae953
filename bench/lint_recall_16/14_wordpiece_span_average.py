"""NER tagger on a subword encoder: word vectors are the average of their wordpiece vectors."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SubwordEncoder(nn.Module):
    def __init__(self, vocab_size=3000, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        layer = nn.TransformerEncoderLayer(dim, 4, 256, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)

    def forward(self, wordpiece_ids, wordpiece_mask):
        return self.encoder(self.emb(wordpiece_ids), src_key_padding_mask=~wordpiece_mask)


class MismatchedTagger(nn.Module):
    """Tags whole words although the encoder sees wordpieces; `offsets` maps word -> [start, end) pieces."""

    def __init__(self, num_tags, dim=128):
        super().__init__()
        self.encoder = SubwordEncoder(dim=dim)
        self.proj = nn.Linear(dim, num_tags)

    def word_embeddings(self, wordpiece_ids, wordpiece_mask, offsets):
        pieces = self.encoder(wordpiece_ids, wordpiece_mask)                  # (B, P, D)
        positions = torch.arange(pieces.shape[1], device=pieces.device)
        start, end = offsets[..., 0:1], offsets[..., 1:2]                      # (B, W, 1)
        span_mask = (positions >= start) & (positions < end)                   # (B, W, P)
        span_embeddings_sum = span_mask.float() @ pieces                       # (B, W, D)
        span_embeddings_len = span_mask.sum(dim=-1, keepdim=True)              # (B, W, 1)
        # a word that the tokenizer maps to no wordpiece (e.g. an empty or unknown glyph) has len 0
        return span_embeddings_sum / span_embeddings_len  # expect: unguarded-zero

    def forward(self, wordpiece_ids, wordpiece_mask, offsets):
        return self.proj(self.word_embeddings(wordpiece_ids, wordpiece_mask, offsets))


def train(model, batches, epochs=3, lr=3e-4):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for ids, mask, offsets, tags, word_mask in batches:
            optimizer.zero_grad()
            logits = model(ids, mask, offsets)
            loss = F.cross_entropy(logits[word_mask], tags[word_mask])
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    ids = torch.randint(1, 3000, (2, 12))
    mask = torch.ones(2, 12, dtype=torch.bool)
    offsets = torch.tensor([[[0, 2], [2, 2], [2, 5], [5, 7]], [[0, 1], [1, 4], [4, 6], [6, 9]]])
    tags = torch.randint(0, 5, (2, 4))
    train(MismatchedTagger(num_tags=5), [(ids, mask, offsets, tags, torch.ones(2, 4, dtype=torch.bool))])
