"""Digit-recognition conv net from a group-sparsity experiment: two conv layers and a dense head, trained with cross-entropy plus a small L1 penalty on the dense weights (SGD with momentum). The model function returns `softmax(output)` and the training code passes that to a loss that expects logits (`F.cross_entropy`, which applies log-softmax itself), so softmax is applied twice: the "logits" seen by the loss are confined to [0, 1], the predicted distribution can never be sharper than e/(e+9) for the true class, the loss is floored near 1.46 and its gradients shrink as the outputs saturate -- the network trains slowly and its loss never gets anywhere near what the same model reaches.

Source: https://github.com/jaehong31/CGES/issues/1 (Doing softmax twice)
Report: "In mnist_model.py in mnist_conv, you return tf.nn.softmax(output). Later, in main.py you do:
ff_loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=y_conv, labels=y_)) You do
softmax twice. Instead, you should just return output rather than tf.nn.softmax(output) in mnist_conv."
-- the author: "Thank you for your comment. I fixed it now." Reproduced with 5,000 synthetic 14x14
digit images (10 stroke prototypes, random one-pixel shifts, pixel noise), the conv net above, SGD lr
0.05 momentum 0.9, L1 1e-5, batch 100, 6 epochs. The printed loss is the validation loss as the training
code computes it, on 1,000 held-out images; `acc` is the validation accuracy.

expect: loss-mismatch
symptom: loss-above 1.3
batch: 20
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

C = 10
prototypes = (torch.rand(C, 1, 14, 14) < 0.25).float()


def images(n):
    y = torch.randint(C, (n,))
    x = prototypes[y]
    shifts = torch.randint(-1, 2, (n, 2))
    x = torch.stack([torch.roll(img, (int(a), int(b)), (1, 2)) for img, (a, b) in zip(x, shifts)])
    return x + 0.3 * torch.randn_like(x), y


class MnistConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 3 * 3, 128)
        self.fc2 = nn.Linear(128, C)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        output = self.fc2(F.relu(self.fc1(x.flatten(1))))
        return F.softmax(output, dim=1)


X_train, Y_train = images(5000)
X_val, Y_val = images(1000)
model = MnistConv()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(6):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 100):
        idx = perm[i:i + 100]
        y_conv = model(X_train[idx])
        ff_loss = F.cross_entropy(y_conv, Y_train[idx])
        loss = ff_loss + 1e-5 * (model.fc1.weight.abs().sum() + model.fc2.weight.abs().sum())
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(X_val)
        val_loss = F.cross_entropy(out, Y_val).item()
        val_acc = (out.argmax(1) == Y_val).float().mean().item()
    print(f"epoch {epoch} train {ff_loss.item():.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
