"""Four-digit captcha reader: each 16x48 grey captcha is flattened and fed to an MLP (768 -> 256 ReLU -> 4 x 10 logits, one softmax per character position), cross-entropy summed over the four positions and averaged over the batch, Adam with an initial learning rate of 1e-5 decayed by 0.9 per epoch, DataLoader batches of 64, 8 epochs. At that learning rate the weights barely move during the run: the per-character loss only creeps down from ln(10) and the whole-captcha accuracy (all four digits right) stays low, the "trained for almost 20 epochs and accuracy is still 0" of the report.

Source: https://github.com/littlepai/Unofficial-Zhihu-API/issues/5 (为什么训练了快20轮准确率还是0，而且学习率很低，0.00000851，是哪出问题了吗)
Report: "为什么训练了快20轮准确率还是0，而且学习率很低，0.00000851" (why is the accuracy still 0 after
almost 20 epochs, and the learning rate is very low, 0.00000851?) -- reply: "学习率初始化为1e-5是不是
有点太低了？" (isn't initializing the learning rate to 1e-5 a bit too low?). Reproduced with 5,000
synthetic captchas (four digit glyphs from fixed 16x12 templates with jitter and noise). The printed
loss is the mean per-character cross-entropy on 1,000 held-out captchas, `acc` their whole-captcha
accuracy.

expect: lr-too-low
symptom: loss-above 1.0
batch: 24
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

INIT_LR = 1e-5
glyphs = (torch.rand(10, 16, 12) < 0.4).float()


def make_captchas(n):
    digits = torch.randint(0, 10, (n, 4))
    img = torch.cat([glyphs[digits[:, k]] for k in range(4)], dim=2)
    img = img * (0.7 + 0.6 * torch.rand(n, 1, 1)) + 0.5 * torch.randn(n, 16, 48)
    return img.flatten(1), digits


X_train, y_train = make_captchas(5000)
X_test, y_test = make_captchas(1000)
model = nn.Sequential(nn.Linear(768, 256), nn.ReLU(), nn.Linear(256, 40))
opt = torch.optim.Adam(model.parameters(), lr=INIT_LR)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)


def captcha_loss(logits, digits):
    return F.cross_entropy(logits.view(-1, 10), digits.reshape(-1)) * 4


for epoch in range(8):
    total = 0.0
    for xb, yb in loader:
        loss = captcha_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    sched.step()
    print(f"epoch {epoch} lr {sched.get_last_lr()[0]:.3g} loss {total / len(X_train):.4f}")

with torch.no_grad():
    logits = model(X_test).view(-1, 4, 10)
    test_loss = F.cross_entropy(logits.reshape(-1, 10), y_test.reshape(-1)).item()
    acc = (logits.argmax(2) == y_test).all(1).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
