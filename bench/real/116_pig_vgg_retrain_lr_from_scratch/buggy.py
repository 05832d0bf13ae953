"""Pig-identity VGG-style classifier trained from scratch with the learning rate meant for continuing an already-trained model (Adam lr=1e-5): the loss creeps down and the run ends far from converged.

Source: https://github.com/SamuelLAN/jdPigRecognition/issues/3 (收敛效果慢 -- slow convergence)
Report: "I trained directly with the files in vgg16_2, why does it converge so slowly?"; the
author: "you probably didn't change the parameters in the file; the learning rate needs to be
changed to the one that is commented out in the file, because the current learning rate is the
one for re-training a model that has already been trained for a long time; the initial learning
rate should be much larger. The learning rate is too small, so convergence is slow -- make it
larger." Reproduced with the project's shape (a VGG class with BASE_LEARNING_RATE and a
commented-out initial rate, conv blocks of two 3x3 convolutions + max-pool, dropout before the
fully connected layers, Adam, per-epoch train / validation accuracy) on synthetic 3 x 32 x 32
images of 12 individual pigs (each a coat pattern under lighting and noise changes); `acc` is
the validation accuracy.

expect: lr-too-low
symptom: acc-below 0.5
batch: 6
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

N_PIGS = 12
coats = F.avg_pool2d(torch.randn(N_PIGS, 3, 32, 32), 5, 1, 2) * 3


def make(n):
    y = torch.randint(0, N_PIGS, (n,))
    light = 0.6 + 0.8 * torch.rand(n, 1, 1, 1)
    x = light * coats[y] + 1.0 * torch.randn(n, 3, 32, 32)
    return x, y


class VGG:
    BASE_LEARNING_RATE = 0.00001          # for re-training the already-trained model
    # BASE_LEARNING_RATE = 0.001          # initial learning rate
    EPOCH_TIMES = 6
    BATCH_SIZE = 64

    def __init__(self):
        def block(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(), nn.Conv2d(cout, cout, 3, padding=1),
                    nn.ReLU(), nn.MaxPool2d(2)]
        self.net = nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 64), nn.Flatten(),
                                 nn.Dropout(0.5), nn.Linear(64 * 16, 128), nn.ReLU(), nn.Dropout(0.5),
                                 nn.Linear(128, N_PIGS))
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=self.BASE_LEARNING_RATE)
        self.train_set, self.val_set = make(2400), make(600)

    def run(self):
        for epoch in range(self.EPOCH_TIMES):
            self.net.train()
            x, y = self.train_set
            perm = torch.randperm(len(y))
            total = 0.0
            for i in range(0, len(y), self.BATCH_SIZE):
                idx = perm[i:i + self.BATCH_SIZE]
                loss = F.cross_entropy(self.net(x[idx]), y[idx])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item() * len(idx)
            self.net.eval()
            with torch.no_grad():
                acc = (self.net(self.val_set[0]).argmax(1) == self.val_set[1]).float().mean().item()
            self.loss, self.acc = total / len(y), acc
            print(f"epoch {epoch} loss {self.loss:.4f} val accuracy {acc:.4f}")


o_vgg = VGG()
o_vgg.run()
print(f"final_loss={o_vgg.loss:.6g} acc={o_vgg.acc:.4f}")
