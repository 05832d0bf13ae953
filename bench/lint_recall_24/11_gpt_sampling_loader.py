"""Fine-tune a small causal LM on a text file, then sample from it."""
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class CharChunks(Dataset):
    def __init__(self, text, block_size=128):
        self.chars = sorted(set(text))
        self.stoi = {c: i for i, c in enumerate(self.chars)}
        self.data = torch.tensor([self.stoi[c] for c in text], dtype=torch.long)
        self.block_size = block_size

    def __len__(self):
        return len(self.data) - self.block_size - 1

    def __getitem__(self, i):
        chunk = self.data[i:i + self.block_size + 1]
        return chunk[:-1], chunk[1:]


class TinyLM(nn.Module):
    def __init__(self, vocab, dim=128, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, dim * 4, batch_first=True)
        self.body = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(dim, vocab)

    def forward(self, idx):
        t = idx.size(1)
        mask = torch.triu(torch.full((t, t), float("-inf"), device=idx.device), diagonal=1)
        return self.out(self.body(self.emb(idx), mask=mask))


def train(text, epochs=1):
    train_dataset = CharChunks(text)
    model = TinyLM(len(train_dataset.chars))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    train_dl = DataLoader(train_dataset, batch_size=8)  # expect: train-loader-not-shuffled
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for _ in range(epochs):
        for x, y in train_dl:
            logits = model(x)
            loss = loss_fn(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model, train_dataset


@torch.no_grad()
def sample(model, ds, prompt, n=100):
    model.eval()
    idx = torch.tensor([[ds.stoi[c] for c in prompt]])
    for _ in range(n):
        logits = model(idx[:, -ds.block_size:])[:, -1]
        nxt = torch.multinomial(logits.softmax(dim=-1), 1)
        idx = torch.cat([idx, nxt], dim=1)
    return "".join(ds.chars[i] for i in idx[0].tolist())
