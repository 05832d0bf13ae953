"""GRU causal language model pretraining -- fixed by letting the collate function pass the chunk itself as
the labels (`labels = input_ids`) and leaving the one-position shift to the model's loss, so the logits at
position t are trained against the token at t + 1 (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, CHUNK = 40, 33
successor = torch.randperm(VOCAB)


def make_chunks(n):
    out = torch.empty(n, CHUNK, dtype=torch.long)
    out[:, 0] = torch.randint(0, VOCAB, (n,))
    for t in range(1, CHUNK):
        jump = torch.rand(n) < 0.1
        out[:, t] = torch.where(jump, torch.randint(0, VOCAB, (n,)), successor[out[:, t - 1]])
    return out


class GRUForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 32)
        self.rnn = nn.GRU(32, 96, batch_first=True)
        self.lm_head = nn.Linear(96, VOCAB)

    def forward(self, input_ids, labels=None):
        logits = self.lm_head(self.rnn(self.embed(input_ids))[0])
        if labels is None:
            return logits, None
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        return logits, F.cross_entropy(shift_logits.view(-1, VOCAB), shift_labels.view(-1))


def collate_fn(examples):
    token_ids = torch.stack(examples)
    return {"input_ids": token_ids, "labels": token_ids}


train_chunks, held_chunks = make_chunks(3000), make_chunks(500)
loader = DataLoader(list(train_chunks), batch_size=64, shuffle=True, collate_fn=collate_fn)
model = GRUForCausalLM()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

for epoch in range(3):
    total, n = 0.0, 0
    for batch in loader:
        _, loss = model(batch["input_ids"], labels=batch["labels"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total, n = total + loss.item(), n + 1
    print(f"epoch {epoch} loss {total / n:.4f}")

with torch.no_grad():
    logits, _ = model(held_chunks[:, :-1])
    acc = (logits.argmax(-1) == held_chunks[:, 1:]).float().mean().item()
print(f"final_loss={total / n:.6g} acc={acc:.4f}")
