"""Ten-class object classifier built as a reversible network: a linear stem maps 64-d image descriptors to two 32-d streams, 16 additive coupling blocks (y1 = x1 + F(x2), y2 = x2 + G(y1), F and G small ReLU MLPs, no normalisation) transform them, and a linear head classifies; SGD lr 0.1 with momentum 0.9 and weight decay, batches of 256 from a DataLoader, learning rate halved every epoch. Every coupling adds its branch output onto the stream, so the activations and the backpropagated gradients compound multiplicatively through the 32 residual branches; the first momentum steps on these large gradients overshoot, the next gradients are larger still, and within the first epoch the weights, the loss and the predictions turn into NaN -- the run ends at chance accuracy.

Source: https://github.com/tbung/pytorch-revnet/issues/1 (loss = NAN with revnet models on Cifar dataset)
Report: "when I run train_cifar.py --model revnet38 my loss quickly goes to NAN and the accuracy never
surpasses 10%. Same thing for revnet110. The resnet architectures on the other hand all work perfectly
fine" -- maintainer: "you can try adding `--clip 0.25` ... I found the gradients of the revnet tend to
explode a bit and gradient norm clipping is what I used to obtain the results in the README" --
reporter: "Adding clipping worked beautifully!". Reproduced with 10,000 synthetic descriptors (10 class
prototypes plus noise), the 16-block reversible stack above, 4 epochs. The printed loss is the
cross-entropy on 1,000 held-out descriptors, `acc` the accuracy there.

expect: exploding-gradient
symptom: nonfinite
batch: 21
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

D, CLASSES, BLOCKS = 64, 10, 16
prototypes = torch.randn(CLASSES, D)


def descriptors(n):
    y = torch.randint(0, CLASSES, (n,))
    return prototypes[y] + 2.0 * torch.randn(n, D), y


class AdditiveCoupling(nn.Module):
    def __init__(self, half):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(half, 64), nn.ReLU(), nn.Linear(64, half))
        self.g = nn.Sequential(nn.Linear(half, 64), nn.ReLU(), nn.Linear(64, half))

    def forward(self, x):
        x1, x2 = x.chunk(2, dim=1)
        y1 = x1 + self.f(x2)
        y2 = x2 + self.g(y1)
        return torch.cat([y1, y2], dim=1)


X_train, y_train = descriptors(10000)
X_test, y_test = descriptors(1000)
model = nn.Sequential(nn.Linear(D, D), *[AdditiveCoupling(D // 2) for _ in range(BLOCKS)], nn.Linear(D, CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=256, shuffle=True)

for epoch in range(4):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} last batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
