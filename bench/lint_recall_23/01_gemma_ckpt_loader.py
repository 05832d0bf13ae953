"""Load a decoder-only checkpoint and run a short supervised fine-tune."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size=512, dim=128, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=n_layers)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens):
        seq_len = tokens.size(1)
        causal = torch.triu(torch.full((seq_len, seq_len), float("-inf")), diagonal=1)
        h = self.blocks(self.embed(tokens), mask=causal.to(tokens.device))
        return self.lm_head(h)


def load_weights(model, ckpt_path, device):
    state = torch.load(ckpt_path, map_location=device)  # expect: torch-load-unsafe
    model.load_state_dict(state["model_state_dict"], strict=False)
    return model


def finetune(model, loader, device, steps=100, lr=1e-4):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    done = 0
    while done < steps:
        for (tokens,) in loader:
            tokens = tokens.to(device)
            logits = model(tokens[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            done += 1
            if done % 20 == 0:
                print(f"step {done} loss {loss.item():.4f}")
            if done >= steps:
                break
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", required=True)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = load_weights(TinyDecoder(), args.ckpt, device).to(device)
    data = TensorDataset(torch.randint(0, 512, (256, 33)))
    loader = DataLoader(data, batch_size=16, shuffle=True)
    finetune(model, loader, device)


if __name__ == "__main__":
    main()
