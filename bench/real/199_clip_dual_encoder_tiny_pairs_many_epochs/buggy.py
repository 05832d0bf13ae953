"""Image-caption contrastive model in the style of a minimal CLIP (an image encoder on small images and a caption encoder on token bags, projected to a shared space, symmetric InfoNCE with a learnable temperature, AdamW, DataLoader) trained for many epochs on a tiny set of pairs: within a few epochs the encoders start memorising the individual training pairs -- the training loss keeps dropping towards zero while the validation loss turns around and climbs well above its early minimum, and the final model is the overfitted one.

Source: https://github.com/moein-shariatnia/OpenAI-CLIP/issues/9 (Train-Validation Loss)
Report: "While training this clip model I observed the validation loss increases and never
decreases. Is that supposed to happen?" -- the author: "As the used models are rather small and the
dataset limited, I believe the models start overfitting the dataset very soon in the training. I
remember a similar pattern where even 1 epoch was enough for the initial results." Reproduced with
480 synthetic image-caption pairs (12x12 images composed of a shape, a colour and a position, a
caption of the attribute words among filler words, with random distractors), 400 for training
and 80 for validation, an image MLP 432-256-64 and a caption MLP 300-256-64, temperature
initialised at 0.07, AdamW lr 1e-3 (no weight decay), batches of 40, 60 epochs. The printed loss
is the validation InfoNCE of the final model (batches of 40), `acc` its image-to-caption top-1
accuracy on those batches.

expect: overfitting
symptom: final-loss-ratio 1.3
batch: 11
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

VOCAB, EPOCHS = 300, 60


def make_pairs(n):
    shape, colour, pos = torch.randint(0, 4, (n,)), torch.randint(0, 3, (n,)), torch.randint(0, 4, (n,))
    img = 0.3 * torch.randn(n, 3, 12, 12)
    for i in range(n):
        r, c = 2 + 5 * (pos[i] // 2), 2 + 5 * (pos[i] % 2)
        patch = torch.zeros(5, 5)
        if shape[i] == 0:
            patch[:] = 1
        elif shape[i] == 1:
            patch[2, :] = 1
            patch[:, 2] = 1
        elif shape[i] == 2:
            patch[torch.arange(5), torch.arange(5)] = 1
        else:
            patch[0, :] = 1
            patch[4, :] = 1
        img[i, colour[i], r:r + 5, c:c + 5] += 1.5 * patch
    words = torch.stack([shape, 4 + colour, 7 + pos], 1)
    filler = torch.randint(11, VOCAB, (n, 4))
    cap = torch.zeros(n, VOCAB).scatter_add_(1, torch.cat([words, filler], 1), torch.ones(n, 7))
    return img.flatten(1), cap


class Clip(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Sequential(nn.Linear(432, 256), nn.ReLU(), nn.Linear(256, 64))
        self.txt = nn.Sequential(nn.Linear(VOCAB, 256), nn.ReLU(), nn.Linear(256, 64))
        self.log_scale = nn.Parameter(torch.tensor(1 / 0.07).log())

    def forward(self, im, tx):
        a, b = F.normalize(self.img(im), dim=1), F.normalize(self.txt(tx), dim=1)
        logits = self.log_scale.exp() * a @ b.t()
        target = torch.arange(len(im))
        return (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2, logits


def evaluate(model, im, tx):
    model.eval()
    losses, hits = [], []
    with torch.no_grad():
        for i in range(0, len(im), 40):
            loss, logits = model(im[i:i + 40], tx[i:i + 40])
            losses.append(loss.item())
            hits.append((logits.argmax(1) == torch.arange(len(logits))).float().mean().item())
    model.train()
    return sum(losses) / len(losses), sum(hits) / len(hits)


IM, TX = make_pairs(480)
im_tr, tx_tr, im_va, tx_va = IM[:400], TX[:400], IM[400:], TX[400:]
model = Clip()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
loader = DataLoader(TensorDataset(im_tr, tx_tr), batch_size=40, shuffle=True)

for epoch in range(EPOCHS):
    for a, b in loader:
        loss, _ = model(a, b)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 0:
        print(f"epoch {epoch} train {loss.item():.4f} val {evaluate(model, im_va, tx_va)[0]:.4f}")

val_loss, acc = evaluate(model, im_va, tx_va)
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
