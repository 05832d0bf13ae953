# Source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/143
# Pitfall: the segmentation head's activation is built as nn.Softmax() with no dim; PyTorch picks the
#          dimension implicitly (with a deprecation warning), which is fragile for (N, C, H, W) masks.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadActivation(nn.Module):
    def __init__(self, name):
        super().__init__()
        if name is None or name == "identity":
            self.act = nn.Identity()
        elif name == "sigmoid":
            self.act = nn.Sigmoid()
        elif name == "softmax":
            self.act = nn.Softmax()  # expect: softmax-without-dim
        else:
            raise ValueError(name)

    def forward(self, x):
        return self.act(x)


class TinySegNet(nn.Module):
    def __init__(self, classes=4, activation=None):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(32, classes, 1)
        self.activation = HeadActivation(activation)

    def forward(self, x):
        return self.head(self.backbone(x))

    @torch.no_grad()
    def predict(self, x):
        self.eval()
        return self.activation(self.forward(x))


if __name__ == "__main__":
    model = TinySegNet(activation="softmax")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    imgs, masks = torch.randn(4, 3, 64, 64), torch.randint(0, 4, (4, 64, 64))
    model.train()
    for _ in range(5):
        opt.zero_grad()
        loss = F.cross_entropy(model(imgs), masks)
        loss.backward()
        opt.step()
    probs = model.predict(imgs)
    print(probs.shape)
