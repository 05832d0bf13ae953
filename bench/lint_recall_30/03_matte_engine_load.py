"""Inference engine for a keying / matting network."""
import numpy as np
import torch
import torch.nn as nn


class KeyerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.alpha = nn.Conv2d(32, 1, 1)

    def forward(self, x):
        return torch.sigmoid(self.alpha(self.enc(x)))


class InferenceEngine:
    def __init__(self, checkpoint_path, device=None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = KeyerNet().to(self.device)
        state = torch.load(checkpoint_path, map_location=self.device)  # expect: torch-load-unsafe
        if "state_dict" in state:
            state = state["state_dict"]
        self.model.load_state_dict(state)
        self.model.eval()

    @torch.no_grad()
    def process_frame(self, frame):
        x = torch.from_numpy(frame.astype(np.float32) / 255.0).permute(2, 0, 1)[None]
        alpha = self.model(x.to(self.device))
        return alpha[0, 0].cpu().numpy()


if __name__ == "__main__":
    engine = InferenceEngine("keyer.pth")
    frame = np.zeros((256, 256, 3), dtype=np.uint8)
    print(engine.process_frame(frame).shape)
