# Source: https://github.com/shubhamagarwal92/mmd/issues/14
# Pitfall: evaluate() switches the dialogue model to eval mode, and the training loop never
#   calls model.train() again, so dropout is off for every epoch after the first evaluation.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class DialogueModel(nn.Module):
    def __init__(self, vocab, emb=256, hidden=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.encoder = nn.GRU(emb, hidden, batch_first=True)
        self.decoder = nn.GRU(emb, hidden, batch_first=True)
        self.drop = nn.Dropout(0.3)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, context, response_in):
        _, h = self.encoder(self.drop(self.embed(context)))
        dec, _ = self.decoder(self.drop(self.embed(response_in)), h)
        return self.out(self.drop(dec))


def evaluate(model, loader, criterion, device):
    model.eval()
    losses = []
    with torch.no_grad():
        for context, resp in loader:
            context, resp = context.to(device), resp.to(device)
            logits = model(context, resp[:, :-1])
            losses.append(criterion(logits.reshape(-1, logits.size(-1)), resp[:, 1:].reshape(-1)).item())
    return sum(losses) / max(len(losses), 1)


def train(model, train_loader, val_loader, epochs, device, eval_every=500):
    criterion = nn.CrossEntropyLoss(ignore_index=0)
    optimizer = torch.optim.Adam(model.parameters(), lr=4e-4)
    model.train()
    step = 0
    for epoch in range(epochs):
        for context, resp in train_loader:
            context, resp = context.to(device), resp.to(device)
            optimizer.zero_grad()
            logits = model(context, resp[:, :-1])
            loss = criterion(logits.reshape(-1, logits.size(-1)), resp[:, 1:].reshape(-1))
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            step += 1
            if step % eval_every == 0:
                val_loss = evaluate(model, val_loader, criterion, device)  # expect: train-mode-not-restored
                print(f"step {step}: train {loss.item():.3f} val {val_loss:.3f}")
