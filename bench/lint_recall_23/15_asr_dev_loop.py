"""Attention encoder-decoder ASR: train epochs and compute dev-set loss and CER."""
import editdistance
import torch
import torch.nn as nn

PAD = 0


class Seq2SeqASR(nn.Module):
    def __init__(self, n_mels=80, vocab=40, dim=256):
        super().__init__()
        self.encoder = nn.LSTM(n_mels, dim, num_layers=3, batch_first=True, bidirectional=True)
        self.embed = nn.Embedding(vocab, dim)
        self.decoder = nn.LSTM(dim, 2 * dim, batch_first=True)
        self.attn = nn.MultiheadAttention(2 * dim, 4, batch_first=True)
        self.out = nn.Linear(2 * dim, vocab)

    def forward(self, feats, prev_tokens):
        enc, _ = self.encoder(feats)
        dec, _ = self.decoder(self.embed(prev_tokens))
        ctx, _ = self.attn(dec, enc, enc)
        return self.out(ctx + dec)


def run_train_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total = 0.0
    for feats, tokens in loader:
        feats, tokens = feats.to(device), tokens.to(device)
        logits = model(feats, tokens[:, :-1])
        loss = criterion(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        total += loss.item()
    return total / max(len(loader), 1)


def run_valid_epoch(model, loader, criterion, device):
    model.eval()
    total_loss, total_err, total_chars = 0.0, 0, 0
    for feats, tokens in loader:
        feats, tokens = feats.to(device), tokens.to(device)
        logits = model(feats, tokens[:, :-1])  # expect: validation-in-train-mode
        total_loss += criterion(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1)).item()
        hyp = logits.argmax(dim=-1)
        for h, r in zip(hyp.tolist(), tokens[:, 1:].tolist()):
            r = [t for t in r if t != PAD]
            total_err += editdistance.eval(h[:len(r)], r)
            total_chars += len(r)
    return total_loss / max(len(loader), 1), total_err / max(total_chars, 1)


def fit(model, train_loader, valid_loader, epochs=30, device="cuda"):
    model = model.to(device)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        tr = run_train_epoch(model, train_loader, optimizer, criterion, device)
        va, cer = run_valid_epoch(model, valid_loader, criterion, device)
        print(f"epoch {epoch}: train {tr:.3f} valid {va:.3f} cer {cer:.3f}")
