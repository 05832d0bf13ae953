"""AutoKeras-style image regressor trained with the classification trainer's SGD(lr=0.025,
momentum=0.9) on an MSE loss: the gradients explode and the loss ends worse than predicting the mean.

Source: https://github.com/keras-team/autokeras/pull/571 ([MRG]Regression bug, resolves #554)
Report (the merged fix's description): "the original learning rate is 0.025, this will cause
exploding gradient during training with MSEloss. I temporally changed to 0.001. But in the
future we should have a task specified training args." In autokeras 0.3 ModelTrainer.train_model
built `torch.optim.SGD(model.parameters(), 0.025, momentum=0.9, weight_decay=3e-4)` with a
CosineAnnealingLR over the epochs for every task, and ImageRegressor trained the generated CNN
with MSELoss on the raw targets. Reproduced with a CnnGenerator-like net (3 x conv3x3-BN-ReLU
with max-pooling, global average pooling, Dense 64 ReLU, Dense 1), a DataLoader of batch 128
and the same optimizer and schedule, on synthetic 16x16 grey "faces" whose target is an age in
years (1..90, unscaled as AutoKeras passed it; their variance, the MSE of predicting the mean,
is ~675); `acc` is the test R^2.

expect: lr-too-high
symptom: loss-above 300
batch: 4
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_faces(n, s=16):
    """Older faces: more wrinkle texture (high-frequency stripes) and greyer, darker shading."""
    age = 1 + 89 * torch.rand(n)
    a = (age / 90).view(n, 1, 1, 1)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, s), torch.linspace(-1, 1, s), indexing="ij")
    face = (xx ** 2 + yy ** 2 < 0.8).float()
    wrinkles = torch.sin(9 * yy + 3 * torch.rand(n, 1, 1, 1)) * face
    x = face * (0.9 - 0.4 * a) + 0.5 * a * wrinkles + 0.15 * torch.randn(n, 1, s, s)
    return x, age.unsqueeze(1)


class CnnModel(nn.Module):
    def __init__(self):
        super().__init__()
        layers, ch = [], 1
        for out in (32, 64, 64):
            layers += [nn.Conv2d(ch, out, 3, padding=1), nn.BatchNorm2d(out), nn.ReLU(), nn.MaxPool2d(2)]
            ch = out
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Linear(ch, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3)))


x_train, y_train = make_faces(2048)
x_test, y_test = make_faces(512)
train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=128, shuffle=True)
model = CnnModel()
loss_function = nn.MSELoss()
max_iter_num = 8
optimizer = torch.optim.SGD(model.parameters(), 0.025, momentum=0.9, weight_decay=3e-4)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, max_iter_num)
losses = []
for epoch in range(max_iter_num):
    model.train()
    for inputs, targets in train_loader:
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = loss_function(outputs, targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    scheduler.step()
    print(f"epoch {epoch} train mse {sum(losses[-16:]) / 16:.3f}")

model.eval()
with torch.no_grad():
    test_mse = loss_function(model(x_test), y_test).item()
r2 = 1 - test_mse / y_test.var().item()
print(f"final_loss={sum(losses[-16:]) / 16:.6g} acc={r2:.4f}")
