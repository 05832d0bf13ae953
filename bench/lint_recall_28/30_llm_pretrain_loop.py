"""GPT-style pretraining loop from a from-scratch LLM tutorial: periodic eval and sample printing."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGPT(nn.Module):
    def __init__(self, vocab=256, dim=64, ctx=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, dim * 4, batch_first=True, norm_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, idx):
        t = idx.size(1)
        mask = torch.triu(torch.full((t, t), float("-inf")), diagonal=1)
        h = self.tok(idx) + self.pos(torch.arange(t))
        return self.out(self.block(h, src_mask=mask))


def calc_loss_batch(x, y, model, device):
    x, y = x.to(device), y.to(device)
    logits = model(x)
    return F.cross_entropy(logits.flatten(0, 1), y.flatten())


def evaluate(model, loader, device):
    model.eval()
    with torch.no_grad():
        losses = [calc_loss_batch(x, y, model, device).item() for x, y in loader]
    model.train()
    return sum(losses) / len(losses)


def train_model_simple(model, train_loader, val_loader, optimizer, device, num_epochs, eval_freq=2):
    step = 0
    for epoch in range(num_epochs):
        model.train()
        for x, y in train_loader:
            loss = calc_loss_batch(x, y, model, device)
            loss.backward()  # expect: gradients-never-cleared
            optimizer.step()
            step += 1
            if step % eval_freq == 0:
                print(epoch, step, evaluate(model, val_loader, device))


if __name__ == "__main__":
    data = torch.randint(0, 256, (16, 33))
    pairs = [(data[i:i + 4, :-1], data[i:i + 4, 1:]) for i in range(0, 16, 4)]
    gpt = TinyGPT()
    opt = torch.optim.AdamW(gpt.parameters(), lr=4e-4, weight_decay=0.1)
    train_model_simple(gpt, pairs, pairs[:1], opt, "cpu", num_epochs=2)
