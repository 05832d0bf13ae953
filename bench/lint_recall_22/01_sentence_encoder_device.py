"""Sentence-embedding helper used to score retrieval pairs after contrastive fine-tuning."""
from typing import List, Union

import numpy as np
import torch
from torch import Tensor
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer


class PairEncoder:
    def __init__(self, name_or_path: str, device: str = None, pooler: str = "cls"):
        self.tokenizer = AutoTokenizer.from_pretrained(name_or_path)
        self.model = AutoModel.from_pretrained(name_or_path)
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        self.pooler = pooler

    def _pool(self, outputs, attention_mask):
        if self.pooler == "cls":
            return outputs.last_hidden_state[:, 0]
        summed = (outputs.last_hidden_state * attention_mask.unsqueeze(-1)).sum(1)
        return summed / attention_mask.sum(1, keepdim=True).clamp(min=1)

    def encode(self, sentences: Union[str, List[str]], batch_size: int = 64,
               normalize: bool = True) -> Tensor:
        self.model = self.model.to(self.device)
        self.model.eval()
        if isinstance(sentences, str):
            sentences = [sentences]
        chunks = []
        for start in range(0, len(sentences), batch_size):
            batch = sentences[start:start + batch_size]
            inputs = self.tokenizer(batch, padding=True, truncation=True,
                                    max_length=128, return_tensors="pt")
            for key in inputs:
                inputs[key].to(self.device)  # expect: tensor-op-result-discarded
            with torch.no_grad():
                outputs = self.model(**inputs, return_dict=True)
                emb = self._pool(outputs, inputs["attention_mask"])
            if normalize:
                emb = F.normalize(emb, dim=1)
            chunks.append(emb.cpu())
        return torch.cat(chunks, 0)

    def similarity(self, queries: List[str], keys: List[str]) -> np.ndarray:
        q = self.encode(queries)
        k = self.encode(keys)
        return (q @ k.T).numpy()


if __name__ == "__main__":
    enc = PairEncoder("bert-base-uncased")
    scores = enc.similarity(["a man is playing guitar"], ["someone plays an instrument", "a cat sleeps"])
    print(scores)
