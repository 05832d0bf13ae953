"""Minimal full-parameter fine-tuning recipe for a decoder-only LM."""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--model-checkpoint", required=True)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=2e-5)
    return p.parse_args()


def build_model():
    from my_llm import TransformerDecoder  # project-local model definition

    return TransformerDecoder(vocab_size=32000, num_layers=16, d_model=2048)


def collate(batch, pad_id=0):
    longest = max(len(x["tokens"]) for x in batch)
    tokens = torch.full((len(batch), longest), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), longest), -100, dtype=torch.long)
    for i, x in enumerate(batch):
        n = len(x["tokens"])
        tokens[i, :n] = torch.tensor(x["tokens"])
        labels[i, : n - 1] = torch.tensor(x["tokens"][1:])
    return tokens, labels


def main(dataset):
    args = parse_args()
    device = torch.device("cuda")
    model = build_model()
    model.load_state_dict(torch.load(args.model_checkpoint))  # expect: torch-load-unsafe
    model.to(device)

    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, collate_fn=collate, num_workers=2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)

    model.train()
    for epoch in range(args.epochs):
        for step, (tokens, labels) in enumerate(loader):
            tokens, labels = tokens.to(device), labels.to(device)
            logits = model(tokens)
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 50 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    torch.save(model.state_dict(), "finetuned.pt")
