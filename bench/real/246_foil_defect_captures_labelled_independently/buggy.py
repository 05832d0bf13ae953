"""Battery-foil defect detector (16x16 grey patches, a one-hidden-layer MLP, full-batch Adam) trained
on captures of the same foils under several light settings. Each physical foil is photographed 8
times and the annotator labels every capture on its own: on a defective foil the defect is not
always convincing in a single shot, so about 30% of its captures are marked "no defect" while the
other captures of the very same foil -- pixel-for-pixel the same apart from a small lighting shift
and sensor noise -- are marked "defect". The training set therefore holds near-identical inputs with
opposite labels; the network can only separate them by memorising the lighting jitter, the training
loss stays an order of magnitude above what consistent labels reach, and the detector generalises
clearly worse to new foils.

Source: https://github.com/AlexeyAB/darknet/issues/6777 (What happens if similar images get different labels?)
Report: "I have many similar grayscaled images of foils with and without defects. The problem is:
when light source or reflection of the foil changes ... not all defects are clearly visible. ... Can
I label them without comparing all images and decide defects only to the current image, so e.g on 7
images I would label the defect and on 3 I wouldn't. Will the allogrythm understand this as 70%
possible defect or will this corrupt the hole training?" Reproduced with 300 synthetic foils (half
with a scratch or pit defect), 8 captures each (brightness offset and gradient of about 1% plus 0.5%
pixel noise; inputs standardised), each capture of a defective foil labelled "defect" with
probability 0.7. MLP 256-64-2, Adam lr 3e-3 with weight decay 1e-3, 300 full-batch steps. The
printed loss is the final training cross-entropy, `acc` the foil-level accuracy on 100 held-out
foils (all 8 captures averaged).

expect: label-conflict
symptom: final-loss-ratio 5
batch: 14
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

S, CAPTURES = 16, 8


def make_foils(n):
    base = 0.5 + 0.03 * torch.randn(n, 1, S, S)
    defective = torch.rand(n) < 0.5
    for i in torch.nonzero(defective).flatten().tolist():
        r, c = int(torch.randint(2, S - 6, ())), int(torch.randint(2, S - 6, ()))
        if torch.rand(()) < 0.5:
            base[i, 0, r, c:c + 5] -= 0.35
        else:
            base[i, 0, r:r + 2, c:c + 2] -= 0.4
    return base, defective


def capture(foils):
    n = len(foils)
    ramp = torch.linspace(-1, 1, S).view(1, 1, 1, S)
    shift = 0.01 * torch.randn(n, CAPTURES, 1, 1, 1) + 0.01 * torch.randn(n, CAPTURES, 1, 1, 1) * ramp
    imgs = foils[:, None] + shift + 0.005 * torch.randn(n, CAPTURES, 1, S, S)
    return (imgs - 0.5) / 0.1


def annotate(defective):
    per_capture = defective[:, None] & (torch.rand(len(defective), CAPTURES) < 0.7)
    return per_capture.long()


train_foils, train_def = make_foils(300)
train_imgs = capture(train_foils).reshape(-1, 1, S, S)
train_y = annotate(train_def).reshape(-1)
test_foils, test_def = make_foils(100)
test_imgs = capture(test_foils)

model = nn.Sequential(nn.Flatten(), nn.Linear(S * S, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-3)
for step in range(300):
    loss = F.cross_entropy(model(train_imgs), train_y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    p = F.softmax(model(test_imgs.reshape(-1, 1, S, S)), 1)[:, 1].view(-1, CAPTURES).mean(1)
    acc = ((p > 0.5) == test_def).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
