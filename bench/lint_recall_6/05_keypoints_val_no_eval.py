# Source: https://github.com/udacity/P1_Facial_Keypoints/issues/28
# Pitfall: the test pass over the keypoint network never switches to eval mode, so its dropout layers keep
#   dropping units while the held-out loss is measured and the sample predictions look noisier than the model.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class KeypointNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.drop = nn.Dropout(0.4)
        self.fc = nn.Linear(64 * 22 * 22, 136)

    def forward(self, x):
        x = self.features(x).flatten(1)
        return self.fc(self.drop(x))


def net_sample_output(net, test_loader):
    criterion = nn.SmoothL1Loss()
    total, batches = 0.0, 0
    with torch.no_grad():
        for sample in test_loader:
            images = sample["image"].float()
            key_pts = sample["keypoints"].view(images.size(0), -1).float()
            predicted = net(images)  # expect: validation-in-train-mode
            total += criterion(predicted, key_pts).item()
            batches += 1
    return total / max(batches, 1)
