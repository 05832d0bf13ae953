"""Feed-forward 3D reconstruction demo: aggregator with pretrained frame encoder."""
import torch
import torch.nn as nn


class FrameEncoder(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 14, 14)
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 8, batch_first=True), 4)

    def forward(self, x):
        tokens = self.patch(x).flatten(2).transpose(1, 2)
        return self.blocks(tokens)


class Aggregator(nn.Module):
    def __init__(self, dim=256, pretrained_path=None):
        super().__init__()
        self.encoder = FrameEncoder(dim)
        self.point_head = nn.Linear(dim, 3)
        if pretrained_path is not None:
            ckpt = torch.load(pretrained_path, map_location="cpu")  # expect: torch-load-unsafe
            self.encoder.load_state_dict(ckpt.get("model", ckpt), strict=False)

    def forward(self, frames):
        b, s = frames.shape[:2]
        tokens = self.encoder(frames.flatten(0, 1))
        return self.point_head(tokens).view(b, s, -1, 3)


@torch.inference_mode()
def main():
    model = Aggregator(pretrained_path="encoder.pth").eval()
    frames = torch.rand(1, 4, 3, 224, 224)
    print(model(frames).shape)


if __name__ == "__main__":
    main()
