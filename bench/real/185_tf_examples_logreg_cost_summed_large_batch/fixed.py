"""TensorFlow-Examples-style softmax regression -- fixed as the maintainer did: the cost is averaged over
the batch, mean(-sum(y * log(pred), 1)) (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SIDE, N_CLASSES = 16, 10


def letter_templates():
    g = torch.Generator().manual_seed(99)
    temps = torch.zeros(N_CLASSES, SIDE, SIDE)
    for c in range(N_CLASSES):
        for _ in range(4):
            r0, c0, r1, c1 = torch.randint(1, SIDE - 1, (4,), generator=g).tolist()
            for t in torch.linspace(0, 1, 30):
                temps[c, round(r0 + (r1 - r0) * t.item()), round(c0 + (c1 - c0) * t.item())] = 1.0
    return temps


def make_letters(n, temps):
    y = torch.randint(0, N_CLASSES, (n,))
    imgs = temps[y].unsqueeze(1)
    thick = torch.rand(n, 1, 1, 1) < 0.5
    imgs = torch.where(thick, F.max_pool2d(imgs, 3, 1, 1), imgs).squeeze(1)
    shifts = torch.randint(-1, 2, (n, 2))
    imgs = torch.stack([torch.roll(im, tuple(s.tolist()), (0, 1)) for im, s in zip(imgs, shifts)])
    imgs = (imgs + 0.2 * torch.randn_like(imgs)).clamp(0, 1)
    return imgs.reshape(n, -1), F.one_hot(y, N_CLASSES).float()


temps = letter_templates()
train_x, train_y = make_letters(12000, temps)
test_x, test_y = make_letters(2000, temps)

learning_rate, training_epochs, batch_size = 0.01, 10, 1000
W = torch.zeros(SIDE * SIDE, N_CLASSES, requires_grad=True)
b = torch.zeros(N_CLASSES, requires_grad=True)
optimizer = torch.optim.SGD([W, b], lr=learning_rate)

for epoch in range(training_epochs):
    avg_cost = 0.0
    total_batch = len(train_x) // batch_size
    perm = torch.randperm(len(train_x))
    for i in range(total_batch):
        idx = perm[i * batch_size:(i + 1) * batch_size]
        x, y = train_x[idx], train_y[idx]
        pred = torch.softmax(x @ W + b, dim=1)
        cost = torch.mean(-torch.sum(y * torch.log(pred), dim=1))
        optimizer.zero_grad()
        cost.backward()
        optimizer.step()
        avg_cost += cost.item() / total_batch
    print(f"Epoch: {epoch + 1:04d} cost= {avg_cost:.9f}")

with torch.no_grad():
    correct = (torch.softmax(test_x @ W + b, 1).argmax(1) == test_y.argmax(1)).float().mean().item()
print(f"final_loss={avg_cost:.6g} acc={correct:.4f}")
