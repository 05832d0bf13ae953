"""Drone power-draw regressor: two standardised velocity readings predict the electrical power (a quadratic, energy-like function of the velocities plus noise) with a narrow stacked-ReLU network (2-4-4-4-1, three ReLU hidden layers), MSE and plain SGD on mini-batches of 10 sliced by hand. With learning rate 0.03 the first large-error batches push every unit of a hidden layer to a negative pre-activation for all inputs; from then on that layer outputs only zeros, the gradient through it is exactly zero, and the model predicts one constant power for every flight: the error stalls at the variance of the target and does not move for the rest of the run.

Source: https://www.3ctvn.net/wangluoyingyongjishu/21615.html (Relu激活函数的叠加 / dying ReLU in stacked ReLU models, a hands-on write-up)
Report: "在建模过程中的直接性能，Relu叠加的模型在迭代后的MSE时以高度的价值收敛 ... 目前，所有数据的输出结果为0 ...
当学习率为0.03时，MSE摇动并以相对“高”的位置收敛 ... 学习率很小后，模型可以避免神经元活动的陷阱" (the stacked-ReLU
model's MSE converges at a high value, all outputs are 0; at learning rate 0.03 the MSE converges high, with a
small learning rate the model avoids the dead-neuron trap). Reproduced with 2,000 synthetic flights
(power = 2 vx^2 + vy^2 + vx vy + noise), the 2-4-4-4-1 network, SGD lr 0.03, batch 10, 20 epochs. The
printed loss is the MSE on 1,000 held-out flights, `acc` the fraction of them predicted within 1.0.

expect: dead-relu
symptom: loss-above 5
batch: 21
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LR = 0.03


def flights(n):
    v = torch.randn(n, 2)
    power = 2 * v[:, 0] ** 2 + v[:, 1] ** 2 + v[:, 0] * v[:, 1] + 0.1 * torch.randn(n)
    return v, power.unsqueeze(1)


X_train, y_train = flights(2000)
X_test, y_test = flights(1000)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(),
                      nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=LR)

for epoch in range(20):
    order = torch.randperm(len(X_train))
    for i in range(0, len(order), 10):
        idx = order[i:i + 10]
        loss = F.mse_loss(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(X_test)
        test_mse = F.mse_loss(pred, y_test).item()
        within = ((pred - y_test).abs() < 1.0).float().mean().item()
    if epoch % 4 == 3:
        print(f"epoch {epoch} test mse {test_mse:.4f} within-1 {within:.3f}")

print(f"final_loss={test_mse:.6g} acc={within:.4f}")
