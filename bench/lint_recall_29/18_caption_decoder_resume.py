"""Show-Attend-and-Tell training entry point with optional resume."""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim


def build(args, vocabulary_size):
    encoder = nn.Sequential(nn.Conv2d(3, 512, 3, padding=1), nn.AdaptiveAvgPool2d(14))
    decoder = nn.LSTM(512, 512, batch_first=True)
    head = nn.Linear(512, vocabulary_size)
    if args.model:
        decoder.load_state_dict(torch.load(args.model))  # expect: torch-load-unsafe
    return encoder, decoder, head


def train_epoch(encoder, decoder, head, optimizer, loader, device):
    encoder.train()
    decoder.train()
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    total = 0.0
    for imgs, captions in loader:
        imgs, captions = imgs.to(device), captions.to(device)
        optimizer.zero_grad()
        feats = encoder(imgs).flatten(2).transpose(1, 2)
        out, _ = decoder(feats[:, : captions.size(1)])
        logits = head(out)
        loss = criterion(logits.reshape(-1, logits.size(-1)), captions.reshape(-1))
        loss.backward()
        nn.utils.clip_grad_norm_(decoder.parameters(), 5.0)
        optimizer.step()
        total += loss.item()
    return total / max(len(loader), 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str, default="")
    parser.add_argument("--lr", type=float, default=4e-4)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    encoder, decoder, head = build(args, 23531)
    encoder, decoder, head = encoder.to(device), decoder.to(device), head.to(device)
    optimizer = optim.Adam(list(decoder.parameters()) + list(head.parameters()), lr=args.lr)
    return encoder, decoder, head, optimizer


if __name__ == "__main__":
    main()
