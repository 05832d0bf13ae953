# Source: https://github.com/UMMISCO/ecgtizer/issues/5
# Pitfall: the lead-completion model loads a user-supplied .pth path with torch.load and no
#   weights_only=True, so a tampered model file can execute code while it is being read.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class LeadCompletionNet(nn.Module):
    def __init__(self, n_leads=12, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(n_leads, hidden, 7, padding=3), nn.ReLU(),
                                     nn.Conv1d(hidden, hidden, 7, padding=3), nn.ReLU())
        self.decoder = nn.Conv1d(hidden, n_leads, 7, padding=3)

    def forward(self, x):
        return self.decoder(self.encoder(x))


def build_model(path, device="cpu"):
    model = LeadCompletionNet()
    model.load_state_dict(torch.load(path, map_location=torch.device(device)))  # expect: torch-load-unsafe
    model.to(device)
    model.eval()
    return model


def complete_leads(model, partial_ecg, device="cpu"):
    with torch.no_grad():
        x = torch.as_tensor(partial_ecg, dtype=torch.float32, device=device).unsqueeze(0)
        return model(x).squeeze(0).cpu().numpy()
