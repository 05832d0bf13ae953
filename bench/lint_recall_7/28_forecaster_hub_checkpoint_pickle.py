# Source: https://github.com/Synthefy/synthefy-nori/pull/54
# Pitfall: the model loader reads a checkpoint downloaded from the Hub with
#   torch.load(..., weights_only=False); a tampered .pt file executes code when it is unpickled.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
from huggingface_hub import hf_hub_download


class PatchForecaster(nn.Module):
    def __init__(self, patch_len=16, d_model=128, n_layers=3, horizon=96):
        super().__init__()
        self.patch_len = patch_len
        self.embed = nn.Linear(patch_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=4 * d_model, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.head = nn.Linear(d_model, horizon)

    def forward(self, series):
        patches = series.unfold(-1, self.patch_len, self.patch_len)
        h = self.encoder(self.embed(patches))
        return self.head(h[:, -1])


def load_model(repo_id="example-org/forecaster", filename="model.pt", device="cpu"):
    path = hf_hub_download(repo_id=repo_id, filename=filename)
    checkpoint = torch.load(path, map_location=device, weights_only=False)  # expect: torch-load-unsafe
    model = PatchForecaster(**checkpoint["model_config"])
    model.load_state_dict(checkpoint["state_dict"])
    return model.to(device)


def finetune(model, series, targets, epochs=3, lr=1e-4):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(series))
        running = 0.0
        for idx in perm.split(32):
            optimizer.zero_grad()
            loss = nn.functional.l1_loss(model(series[idx]), targets[idx])
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"epoch {epoch}: mae {running / len(perm.split(32)):.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", default="example-org/forecaster")
    args = parser.parse_args()
    net = load_model(args.repo)
    finetune(net, torch.randn(256, 512), torch.randn(256, 96))
