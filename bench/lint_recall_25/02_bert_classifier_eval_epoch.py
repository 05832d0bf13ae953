"""Fine-tune a small transformer classifier; evaluate on the dev split after every epoch."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyBertClassifier(nn.Module):
    def __init__(self, vocab=5000, dim=128, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, nhead=4, dim_feedforward=256, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.dropout = nn.Dropout(0.1)
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, ids):
        h = self.encoder(self.emb(ids))
        return self.cls(self.dropout(h[:, 0]))


def make_loader(n, shuffle):
    ids = torch.randint(1, 5000, (n, 64))
    labels = torch.randint(0, 2, (n,))
    return DataLoader(TensorDataset(ids, labels), batch_size=32, shuffle=shuffle)


def _train_epoch(model, loader, optim, loss_fn):
    for step, (ids, labels) in enumerate(loader):
        logits = model(ids)
        loss = loss_fn(logits, labels)
        optim.zero_grad()
        loss.backward()
        optim.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}")


@torch.no_grad()
def _eval_epoch(model, loader):
    model.eval()  # expect: train-mode-not-restored
    correct, total = 0, 0
    for ids, labels in loader:
        preds = model(ids).argmax(dim=-1)
        correct += (preds == labels).sum().item()
        total += labels.numel()
    return correct / max(total, 1)


def main(num_epochs=3):
    train_loader = make_loader(4000, shuffle=True)
    dev_loader = make_loader(500, shuffle=False)
    model = TinyBertClassifier()
    optim = torch.optim.Adam(model.parameters(), lr=2e-5)
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for epoch in range(num_epochs):
        _train_epoch(model, train_loader, optim, loss_fn)
        acc = _eval_epoch(model, dev_loader)
        print(f"epoch {epoch}: dev accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
