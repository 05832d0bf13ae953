"""Loading a pretrained speech encoder checkpoint and fine-tuning its projection on labelled audio."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeechEncoder(nn.Module):
    def __init__(self, dim=512, vocab=64):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(80, dim, 3, padding=1), nn.GELU())
        layer = nn.TransformerEncoderLayer(dim, 8, 4 * dim, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 6)
        self.final_proj = nn.Linear(dim, vocab)

    def forward(self, fbank):
        x = self.frontend(fbank.transpose(1, 2)).transpose(1, 2)
        return self.final_proj(self.encoder(x))


def load_checkpoint(path, map_location="cpu", restrict=False):
    if restrict:
        return torch.load(path, map_location=map_location, weights_only=True)
    return torch.load(path, map_location=map_location)  # expect: torch-load-unsafe


def finetune(path, loader, epochs=3, device="cuda"):
    model = SpeechEncoder()
    checkpoint = load_checkpoint(path)
    model.load_state_dict(checkpoint["model"])
    model.to(device)
    for p in model.frontend.parameters():
        p.requires_grad_(False)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-5)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    for epoch in range(epochs):
        model.train()
        for fbank, targets, in_lens, tgt_lens in loader:
            fbank, targets = fbank.to(device), targets.to(device)
            log_probs = F.log_softmax(model(fbank), dim=-1).transpose(0, 1)
            loss = ctc(log_probs, targets, in_lens, tgt_lens)
            opt.zero_grad()
            loss.backward()
            opt.step()
