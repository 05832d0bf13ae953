"""Kim-style CNN sentence classifier trained with nn.CrossEntropyLoss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextCNN(nn.Module):
    def __init__(self, vocab_size, embed_dim, n_classes, kernel_sizes=(3, 4, 5), n_filters=100, dropout=0.5):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(embed_dim, n_filters, k) for k in kernel_sizes])
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(n_filters * len(kernel_sizes), n_classes)

    def forward(self, tokens):
        x = self.embedding(tokens).transpose(1, 2)
        pooled = [F.relu(conv(x)).max(dim=2).values for conv in self.convs]
        h = self.dropout(torch.cat(pooled, dim=1))
        logits = self.fc(h)
        return F.softmax(logits, dim=1)  # expect: softmax-before-cross-entropy


def run_epoch(model, loader, criterion, optimizer, device):
    model.train()
    total, n = 0.0, 0
    for tokens, labels in loader:
        tokens, labels = tokens.to(device), labels.to(device)
        optimizer.zero_grad()
        scores = model(tokens)
        loss = criterion(scores, labels)
        loss.backward()
        optimizer.step()
        total += loss.item() * labels.size(0)
        n += labels.size(0)
    return total / n


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    hits, n = 0, 0
    for tokens, labels in loader:
        preds = model(tokens.to(device)).argmax(dim=1).cpu()
        hits += (preds == labels).sum().item()
        n += labels.size(0)
    return hits / n


def main(train_loader, dev_loader, vocab_size, n_classes, epochs=10):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TextCNN(vocab_size, 300, n_classes).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adadelta(model.parameters())
    for epoch in range(epochs):
        loss = run_epoch(model, train_loader, criterion, optimizer, device)
        print(f"epoch {epoch} loss {loss:.4f} dev acc {accuracy(model, dev_loader, device):.3f}")
