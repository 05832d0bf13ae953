# Source: https://github.com/affaan-m/ECC/pull/3122
# Pitfall: the pretraining loop for a small GPT calls loss.backward() and optimizer.step() per batch without
#          clearing .grad, so stale gradients from every earlier batch are re-applied at each step.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PicoGPT(nn.Module):
    def __init__(self, vocab=512, width=64, ctx=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(ctx, width)
        layer = nn.TransformerEncoderLayer(width, 4, 4 * width, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.out = nn.Linear(width, vocab)

    def forward(self, idx):
        t = idx.shape[1]
        mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        h = self.tok(idx) + self.pos(torch.arange(t))
        return self.out(self.blocks(h, mask=mask))


def batch_loss(inp, tgt, model, device):
    inp, tgt = inp.to(device), tgt.to(device)
    logits = model(inp)
    return F.cross_entropy(logits.flatten(0, 1), tgt.flatten())


def pretrain(model, train_loader, optimizer, device, epochs):
    seen = 0
    for ep in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = batch_loss(x, y, model, device)
            loss.backward()  # expect: gradients-never-cleared
            optimizer.step()
            seen += x.numel()
        print(f"epoch {ep}: tokens seen {seen}, last loss {loss.item():.3f}")


if __name__ == "__main__":
    data = torch.randint(0, 512, (256, 33))
    ds = TensorDataset(data[:, :-1], data[:, 1:])
    gpt = PicoGPT()
    pretrain(gpt, DataLoader(ds, batch_size=16, shuffle=True),
             torch.optim.AdamW(gpt.parameters(), lr=4e-4, weight_decay=0.1), "cpu", 2)
