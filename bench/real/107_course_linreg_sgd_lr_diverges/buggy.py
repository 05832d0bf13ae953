"""Course linear-regression notebook (nn.Linear, MSELoss, SGD lr=0.01) on inputs of scale ~10: every step overshoots and the loss diverges to inf.

Source: https://github.com/rslim087a/PyTorch-for-Deep-Learning-and-Computer-Vision-Course-All-Codes-/issues/1 (Limear Regression diverges)
Report: "I am using exactly the code as per Linear_Regression.ipynb but it diverges!"; answer:
"I have solved this problem by dramatically decreasing the learning rate ... works perfectly"
("That works, thanks"). Reproduced with the notebook's recipe: X = randn * 10-ish, y = X plus
Gaussian noise, a custom LR(nn.Module) wrapping nn.Linear(1, 1), nn.MSELoss,
torch.optim.SGD(lr=0.01), full-batch epochs of zero_grad / backward / step; the inputs here have
a spread of 12, for which lr=0.01 is past the stability limit of plain gradient descent (lr * 2
* E[x^2] > 2), so the weight flips sign and grows every epoch. `acc` is the share of test points
predicted within 5 of their target.

expect: lr-too-high
symptom: nonfinite
batch: 6
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

X = torch.randn(100, 1) * 12
y = X + 3 * torch.randn(100, 1)
X_test = torch.randn(200, 1) * 12
y_test = X_test + 3 * torch.randn(200, 1)


class LR(nn.Module):
    def __init__(self, input_size, output_size):
        super().__init__()
        self.linear = nn.Linear(input_size, output_size)

    def forward(self, x):
        return self.linear(x)


model = LR(1, 1)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

epochs = 150
losses = []
for i in range(epochs):
    y_pred = model.forward(X)
    loss = criterion(y_pred, y)
    losses.append(loss.item())
    if i % 25 == 0:
        print("epoch:", i, "loss:", loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

with torch.no_grad():
    acc = ((model(X_test) - y_test).abs() < 5).float().mean().item()
print(f"final_loss={losses[-1]:.6g} acc={acc:.4f}")
