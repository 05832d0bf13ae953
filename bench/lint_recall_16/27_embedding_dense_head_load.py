"""Sentence-embedding head modules that save/load themselves; fine-tuned with a contrastive loss."""
import json
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Dense(nn.Module):
    """Feed-forward projection on top of pooled sentence embeddings."""

    def __init__(self, in_features: int, out_features: int, activation: str = "tanh"):
        super().__init__()
        self.config = {"in_features": in_features, "out_features": out_features, "activation": activation}
        self.linear = nn.Linear(in_features, out_features)
        self.activation = torch.tanh if activation == "tanh" else nn.Identity()

    def forward(self, features: dict) -> dict:
        features["sentence_embedding"] = self.activation(self.linear(features["sentence_embedding"]))
        return features

    def save(self, output_path: str):
        os.makedirs(output_path, exist_ok=True)
        with open(os.path.join(output_path, "config.json"), "w") as f:
            json.dump(self.config, f)
        torch.save(self.state_dict(), os.path.join(output_path, "pytorch_model.bin"))

    @staticmethod
    def load(input_path: str) -> "Dense":
        with open(os.path.join(input_path, "config.json")) as f:
            config = json.load(f)
        model = Dense(**config)
        model.load_state_dict(
            torch.load(os.path.join(input_path, "pytorch_model.bin"), map_location=torch.device("cpu"))  # expect: torch-load-unsafe
        )
        return model


def multiple_negatives_ranking_loss(anchors, positives, scale=20.0):
    scores = F.normalize(anchors, dim=-1) @ F.normalize(positives, dim=-1).t() * scale
    labels = torch.arange(scores.shape[0], device=scores.device)
    return F.cross_entropy(scores, labels)


def finetune_head(head: Dense, pairs, epochs=3, lr=2e-5):
    optimizer = torch.optim.AdamW(head.parameters(), lr=lr)
    for epoch in range(epochs):
        head.train()
        for anchor_emb, positive_emb in pairs:
            a = head({"sentence_embedding": anchor_emb})["sentence_embedding"]
            p = head({"sentence_embedding": positive_emb})["sentence_embedding"]
            loss = multiple_negatives_ranking_loss(a, p)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    head = Dense(384, 256)
    finetune_head(head, [(torch.randn(32, 384), torch.randn(32, 384)) for _ in range(5)])
    head.save("out/dense")
    reloaded = Dense.load("out/dense")
