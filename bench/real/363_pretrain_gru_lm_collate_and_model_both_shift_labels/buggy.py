"""Small causal language model pretraining script in the style of a Llama training repo: a GRU language model (40-token vocabulary, 32-d embeddings, 96 hidden units) whose forward pass, when given `labels`, shifts logits and labels by one position itself and returns the cross-entropy, trained on fixed-length token chunks from a DataLoader with AdamW lr 3e-3. The collate function also builds the labels as the chunk shifted by one (`input_ids = chunk[:, :-1]`, `labels = chunk[:, 1:]`), so together with the shift inside the model the logits at position t are trained against the token at t + 2: the model learns to skip a token and its next-token predictions, which is what generation uses, are wrong.

Source: https://github.com/LLM360/amber-train/issues/6 (Aligning logits with labels through two shifts?)
Report: the collate function returns `{'input_ids': token_ids[:, :-1], 'labels': token_ids[:, 1:]}` while
`LlamaForCausalLM` computes the loss on "shift_logits = logits[..., :-1, :]" and "shift_labels = labels[...,
1:]" -- "why is the alignment between predictions and targets shifted once when the data are prepared and
shifted again when the loss is computed in the model?" Reproduced with 3,000 synthetic 33-token chunks from a
Markov source in which each token is followed by its own fixed successor 90% of the time, and the model
above for 3 epochs of batches of 64. The printed loss is the mean training loss of the last epoch (as the
script computes it), `acc` the next-token accuracy of the trained model on 500 held-out chunks.

expect: label-misaligned
symptom: acc-below 0.5
batch: 22
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
    return {"input_ids": token_ids[:, :-1], "labels": token_ids[:, 1:]}


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
