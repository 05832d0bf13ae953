import torch
import torch.nn as nn


class ResponseGenerator(nn.Module):
    def __init__(self, vocab=8000, dim=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.dec = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)
        self.drop = nn.Dropout(0.2)

    def forward(self, src, tgt_in):
        _, h = self.enc(self.drop(self.emb(src)))
        dec_out, _ = self.dec(self.drop(self.emb(tgt_in)), h)
        return self.out(dec_out)


def run_epoch(model, loader, criterion, optimizer=None, device="cuda"):
    is_train = optimizer is not None
    model.train(is_train)
    total, count = 0.0, 0
    for src, tgt in loader:
        src, tgt = src.to(device), tgt.to(device)
        if is_train:
            optimizer.zero_grad()
        logits = model(src, tgt[:, :-1])  # expect: validation-in-train-mode
        loss = criterion(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))
        if is_train:
            loss.backward()
            optimizer.step()
        total += loss.item()
        count += 1
    return total / max(count, 1)


def fit(model, train_loader, val_loader, epochs=10):
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    for epoch in range(epochs):
        tr = run_epoch(model, train_loader, criterion, optimizer)
        va = run_epoch(model, val_loader, criterion)
        print(f"{epoch}: train {tr:.3f} val {va:.3f}")
