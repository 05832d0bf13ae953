"""Flow-matching TTS acoustic model: one training epoch with optional fp16 autocast."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyMatcha(nn.Module):
    def __init__(self, vocab=80, n_mels=80, dim=192):
        super().__init__()
        self.text_emb = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.Sequential(nn.Linear(dim + 2 * n_mels + 1, 256), nn.SiLU(), nn.Linear(256, n_mels))

    def forward(self, tokens, mel):
        h, _ = self.encoder(self.text_emb(tokens))
        cond = h.mean(dim=1, keepdim=True).expand(-1, mel.shape[1], -1)
        t = torch.rand(mel.shape[0], 1, 1, device=mel.device)
        noise = torch.randn_like(mel)
        x_t = (1 - t) * noise + t * mel
        pred = self.decoder(torch.cat([cond, x_t, noise, t.expand(-1, mel.shape[1], 1)], dim=-1))
        return F.mse_loss(pred, mel - noise)


def train_one_epoch(model, optimizer, scaler, train_dl, params, device):
    model.train()
    tot_loss, n = 0.0, 0
    for batch_idx, (tokens, mel) in enumerate(train_dl):
        tokens, mel = tokens.to(device), mel.to(device)
        with torch.autocast(device_type="cuda", enabled=params["use_fp16"]):
            loss = model(tokens, mel)

        if not torch.isfinite(loss):
            print(f"skipping batch {batch_idx}: loss is {loss.item()}")
            optimizer.zero_grad()
            continue

        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        scaler.step(optimizer)  # expect: scaler-update-missing
        optimizer.zero_grad()

        tot_loss += loss.item()
        n += 1
        if batch_idx % params["log_interval"] == 0:
            print(f"batch {batch_idx}: loss {tot_loss / n:.4f}, grad scale {scaler.get_scale():.1f}")
    return tot_loss / max(n, 1)


def run(params):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyMatcha().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    scaler = torch.cuda.amp.GradScaler(enabled=params["use_fp16"])
    train_dl = [(torch.randint(0, 80, (8, 40)), torch.randn(8, 120, 80)) for _ in range(20)]
    for epoch in range(params["num_epochs"]):
        loss = train_one_epoch(model, optimizer, scaler, train_dl, params, device)
        print(f"epoch {epoch}: {loss:.4f}")


if __name__ == "__main__":
    run({"use_fp16": torch.cuda.is_available(), "num_epochs": 2, "log_interval": 5})
