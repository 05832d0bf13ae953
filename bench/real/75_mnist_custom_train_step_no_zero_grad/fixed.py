"""MNIST dense classifier with a hand-written (torch backend) train step -- fixed: the step calls
self.zero_grad() before loss.backward(), as the report asks (nothing else changed).

Source: https://github.com/fchollet/deep-learning-with-python-notebooks/issues/293 (chapter 7 torch implementation of CustomModel forgets to zero_grad)
Report: "the torch train_step implementations need to self.zero_grad(), or else the results are
terrible". The chapter-7 CustomModel overrides train_step for the torch backend: forward,
compute_loss, loss.backward(), then hands [v.value.grad for v in trainable_weights] to
optimizer.apply -- with no zero_grad, so every step applies the sum of all gradients so far.
Reproduced in plain torch with the book's get_mnist_model (784 -> Dense 512 relu -> Dropout 0.5
-> Dense 10 softmax), RMSprop (Keras defaults lr 1e-3, rho 0.9), sparse categorical
cross-entropy and batch size 32, on synthetic 28x28 "digits" (10 digits x 4 stroke styles, noisy,
pixels in [0, 1]); `acc` is the held-out accuracy. Without zero_grad the training loss
climbs back up epoch after epoch while the fixed step keeps lowering it.

expect: missing-zero-grad
symptom: final-loss-ratio 3
batch: 4
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

# synthetic MNIST: each digit has 4 writing styles (random stroke sets); samples are noisy and
# partly erased copies of one style
protos = (torch.rand(10, 4, 28, 28) < 0.12).float()
protos = F.avg_pool2d(protos.reshape(40, 1, 28, 28), 3, 1, 1).reshape(10, 4, 28, 28).clamp(0, 1)


def make(n):
    y = torch.randint(0, 10, (n,))
    x = protos[y, torch.randint(0, 4, (n,))] * (torch.rand(n, 28, 28) < 0.7) + 0.5 * torch.rand(n, 28, 28)
    return x.clamp(0, 1).reshape(n, 784), y


train_images, train_labels = make(20000)
val_images, val_labels = make(1000)


class CustomModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Linear(28 * 28, 512)
        self.dropout = nn.Dropout(0.5)
        self.dense2 = nn.Linear(512, 10)

    def forward(self, x):
        return F.softmax(self.dense2(self.dropout(F.relu(self.dense1(x)))), dim=-1)

    def compute_loss(self, y, y_pred):  # sparse_categorical_crossentropy on probabilities
        return F.nll_loss(torch.log(y_pred.clamp_min(1e-7)), y)

    def train_step(self, data, optimizer):
        self.zero_grad()
        inputs, targets = data
        predictions = self(inputs)
        loss = self.compute_loss(y=targets, y_pred=predictions)
        loss.backward()
        with torch.no_grad():
            optimizer.step()
        return loss.item()


model = CustomModel()
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3, alpha=0.9, eps=1e-7)
losses = []
for epoch in range(3):
    model.train()
    perm = torch.randperm(len(train_images))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        losses.append(model.train_step((train_images[idx], train_labels[idx]), optimizer))
    print(f"epoch {epoch} loss {sum(losses[-100:]) / 100:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(val_images).argmax(1) == val_labels).float().mean().item()
print(f"final_loss={sum(losses[-50:]) / 50:.6g} acc={acc:.4f}")
