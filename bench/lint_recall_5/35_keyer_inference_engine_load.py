# Source: https://github.com/nikopueringer/CorridorKey/pull/58
# Pitfall: the inference engine loads its checkpoint with torch.load(path) and no weights_only argument, so
#          an untrusted checkpoint file is unpickled with full code execution; the fix added weights_only=True.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MatteRefiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(4, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.alpha = nn.Conv2d(32, 1, 1)

    def forward(self, rgb, coarse):
        return torch.sigmoid(self.alpha(self.enc(torch.cat([rgb, coarse], dim=1))))


class KeyerEngine:
    def __init__(self, checkpoint_path, device="cpu"):
        self.device = torch.device(device)
        self.model = MatteRefiner().to(self.device)
        state = torch.load(checkpoint_path, map_location=self.device)  # expect: torch-load-unsafe
        self.model.load_state_dict(state["state_dict"] if "state_dict" in state else state)
        self.model.eval()

    @torch.no_grad()
    def process_frame(self, rgb, coarse_alpha):
        rgb = rgb.to(self.device)
        coarse_alpha = coarse_alpha.to(self.device)
        alpha = self.model(rgb, coarse_alpha)
        return F.interpolate(alpha, size=rgb.shape[-2:], mode="bilinear", align_corners=False)


if __name__ == "__main__":
    torch.save(MatteRefiner().state_dict(), "matte_refiner.pth")
    engine = KeyerEngine("matte_refiner.pth")
    print(engine.process_frame(torch.rand(1, 3, 128, 128), torch.rand(1, 1, 128, 128)).shape)
