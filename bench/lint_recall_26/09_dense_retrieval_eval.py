"""Dual-encoder (DPR-style) retrieval model: training with in-batch negatives and evaluation."""
import torch
import torch.nn.functional as F
from transformers import AutoModel, AutoTokenizer


class RetrievalModel:
    def __init__(self, context_name, query_name, device="cuda"):
        self.device = device
        self.context_tokenizer = AutoTokenizer.from_pretrained(context_name)
        self.query_tokenizer = AutoTokenizer.from_pretrained(query_name)
        self.context_encoder = AutoModel.from_pretrained(context_name).to(device)
        self.query_encoder = AutoModel.from_pretrained(query_name).to(device)

    def _embed(self, encoder, tokenizer, texts):
        enc = tokenizer(texts, padding=True, truncation=True, max_length=256, return_tensors="pt").to(self.device)
        return encoder(**enc).last_hidden_state[:, 0]

    def train_model(self, train_pairs, epochs=2, batch_size=32, lr=2e-5):
        params = list(self.context_encoder.parameters()) + list(self.query_encoder.parameters())
        optimizer = torch.optim.AdamW(params, lr=lr)
        for epoch in range(epochs):
            self.context_encoder.train()
            self.query_encoder.train()
            perm = torch.randperm(len(train_pairs)).tolist()
            for start in range(0, len(perm), batch_size):
                batch = [train_pairs[i] for i in perm[start:start + batch_size]]
                q = self._embed(self.query_encoder, self.query_tokenizer, [b[0] for b in batch])
                c = self._embed(self.context_encoder, self.context_tokenizer, [b[1] for b in batch])
                scores = q @ c.t()
                labels = torch.arange(len(batch), device=self.device)
                loss = F.cross_entropy(scores, labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(epoch, self.eval_model(train_pairs[:500]))

    def eval_model(self, eval_pairs, batch_size=64):
        hits = 0
        with torch.no_grad():
            passages = [p for _, p in eval_pairs]
            ctx = torch.cat([
                self._embed(self.context_encoder, self.context_tokenizer, passages[i:i + batch_size])  # expect: validation-in-train-mode
                for i in range(0, len(passages), batch_size)
            ])
            for i in range(0, len(eval_pairs), batch_size):
                queries = [q for q, _ in eval_pairs[i:i + batch_size]]
                q = self._embed(self.query_encoder, self.query_tokenizer, queries)
                top = (q @ ctx.t()).argmax(dim=1).cpu()
                hits += (top == torch.arange(i, i + len(queries))).sum().item()
        return {"top1_accuracy": hits / len(eval_pairs)}
