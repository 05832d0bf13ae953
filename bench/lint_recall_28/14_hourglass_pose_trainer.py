"""Stacked hourglass pose estimation: one `make_network` closure serves both train and valid phases."""
import torch
import torch.nn as nn


class Hourglass(nn.Module):
    def __init__(self, ch=64, joints=16):
        super().__init__()
        self.pre = nn.Sequential(nn.Conv2d(3, ch, 7, stride=2, padding=3), nn.BatchNorm2d(ch), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(), nn.MaxPool2d(2))
        self.up = nn.Upsample(scale_factor=2)
        self.head = nn.Conv2d(ch, joints, 1)

    def forward(self, x):
        return self.head(self.up(self.down(self.pre(x))))


class Trainer(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, imgs, heatmaps):
        preds = self.model(imgs)
        return ((preds - heatmaps) ** 2).mean()


def make_network(config):
    trainer = Trainer(Hourglass())
    optimizer = torch.optim.Adam(trainer.parameters(), lr=config["lr"])

    def make_train(batch_id, phase, imgs, heatmaps):
        if phase != "inference":
            trainer.train()
            if phase == "train":
                loss = trainer(imgs, heatmaps)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            else:
                with torch.no_grad():
                    loss = trainer(imgs, heatmaps)  # expect: validation-in-train-mode
            return loss.item()
        trainer.eval()
        with torch.no_grad():
            return trainer.model(imgs)

    return make_train


if __name__ == "__main__":
    step = make_network({"lr": 1e-3})
    for i in range(3):
        x = torch.randn(4, 3, 128, 128)
        y = torch.randn(4, 16, 64, 64)
        print(step(i, "train", x, y))
    print(step(0, "valid", x, y))
