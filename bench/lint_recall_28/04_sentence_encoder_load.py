"""Multilingual sentence encoder: load a pretrained checkpoint and fine-tune on paraphrase pairs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMEncoder(nn.Module):
    def __init__(self, vocab, embed=320, hidden=512, padding_idx=1):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed, padding_idx=padding_idx)
        self.lstm = nn.LSTM(embed, hidden, num_layers=2, bidirectional=True, batch_first=True)

    def forward(self, tokens):
        out, _ = self.lstm(self.embed(tokens))
        return out.max(dim=1).values


class SentenceEncoder:
    def __init__(self, model_path, vocab=8000, device="cpu"):
        self.device = device
        state_dict = torch.load(model_path, map_location=device)  # expect: torch-load-unsafe
        self.encoder = LSTMEncoder(vocab)
        self.encoder.load_state_dict(state_dict["model"])
        self.encoder = self.encoder.to(device)

    def encode(self, tokens):
        return self.encoder(tokens.to(self.device))


def finetune(enc, pairs, epochs=1, lr=1e-4):
    params = enc.encoder.parameters()
    optimizer = torch.optim.Adam(params, lr=lr)
    for _ in range(epochs):
        enc.encoder.train()
        for a, b in pairs:
            optimizer.zero_grad()
            ea = F.normalize(enc.encode(a), dim=-1)
            eb = F.normalize(enc.encode(b), dim=-1)
            logits = ea @ eb.t() / 0.05
            target = torch.arange(a.size(0))
            loss = F.cross_entropy(logits, target)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    torch.save({"model": LSTMEncoder(8000).state_dict()}, "encoder.pt")
    encoder = SentenceEncoder("encoder.pt")
    data = [(torch.randint(2, 8000, (4, 12)), torch.randint(2, 8000, (4, 12)))]
    finetune(encoder, data)
