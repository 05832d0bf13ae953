# Source: https://github.com/NVIDIA/DeepLearningExamples/issues/1102
# Pitfall: the pretraining loop adds the live loss tensor into a device-side "average_loss" statistic with
#          add_(loss), so every step's autograd graph stays referenced and host memory keeps growing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class DeviceStats:
    def __init__(self, device):
        self.device = device
        self.values = {}

    def device_stat(self, name):
        if name not in self.values:
            self.values[name] = torch.zeros((), device=self.device)
        return self.values[name]

    def reset(self):
        for v in self.values.values():
            v.zero_()


class MaskedLMHead(nn.Module):
    def __init__(self, vocab=1000, d=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 4, 256, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.decoder = nn.Linear(d, vocab)

    def forward(self, ids):
        return self.decoder(self.enc(self.emb(ids)))


def pretrain(steps=200, log_every=50, device="cpu"):
    model = MaskedLMHead().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ce = nn.CrossEntropyLoss(ignore_index=-100)
    stats = DeviceStats(device)
    for step in range(1, steps + 1):
        ids = torch.randint(0, 1000, (8, 64), device=device)
        labels = torch.where(torch.rand(8, 64, device=device) < 0.15, ids, torch.full_like(ids, -100))
        opt.zero_grad()
        logits = model(ids)
        loss = ce(logits.view(-1, logits.size(-1)), labels.view(-1))
        loss.backward()
        opt.step()
        stats.device_stat("average_loss").add_(loss)  # expect: running-loss-keeps-graph
        if step % log_every == 0:
            print(step, (stats.device_stat("average_loss") / log_every).item())
            stats.reset()


if __name__ == "__main__":
    pretrain()
