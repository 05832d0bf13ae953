"""Binary probe on frozen sentence embeddings (is the retrieved passage relevant?)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def build_probe(dim=384, hidden=64):
    return nn.Sequential(
        nn.Linear(dim, hidden),
        nn.ReLU(),
        nn.Linear(hidden, 1),
    )


def train_probe(embeddings, labels, epochs=20, lr=1e-3):
    loader = DataLoader(TensorDataset(embeddings, labels), batch_size=16, shuffle=True)
    model = build_probe(embeddings.size(1))
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for xb, yb in loader:
            y_pred = model(xb).view(-1)
            loss = F.binary_cross_entropy(y_pred, yb.float())  # expect: bce-on-logits
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * xb.size(0)
        if epoch % 5 == 0:
            print(f"epoch {epoch}: loss {epoch_loss / len(loader.dataset):.4f}")
    return model


@torch.no_grad()
def evaluate(model, embeddings, labels, threshold=0.5):
    model.eval()
    probs = torch.sigmoid(model(embeddings).view(-1))
    preds = (probs > threshold).long()
    tp = ((preds == 1) & (labels == 1)).sum().item()
    fp = ((preds == 1) & (labels == 0)).sum().item()
    fn = ((preds == 0) & (labels == 1)).sum().item()
    precision = tp / max(tp + fp, 1)
    recall = tp / max(tp + fn, 1)
    return {"accuracy": (preds == labels).float().mean().item(), "precision": precision, "recall": recall}


if __name__ == "__main__":
    emb = torch.randn(600, 384)
    lab = torch.randint(0, 2, (600,))
    probe = train_probe(emb[:500], lab[:500])
    print(evaluate(probe, emb[500:], lab[500:]))
