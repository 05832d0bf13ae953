"""Facial-expression classifier on a pixel table (each row a flattened 12x12 grey face and one of 7
emotion labels, like the FER-style `pixels` column; a small Trainer class wrapping an MLP, a
DataLoader and Adam). The table contains many faces that appear more than once, and part of those
repeated faces were labelled with a different emotion each time. Exact duplicate rows are harmless,
but the same pixels with two emotions are contradictory targets: the network cannot fit both, the
training loss stays high and the clean rows are learned worse.

Source: https://github.com/UC-IIC2613/Syllabus/issues/149 ([Tarea 3][Pregunta 1] Duplicados en datos y sesgo al modelo)
Report: "lo probé con `duplicated` ... me encuentra 685 filas completas del set de datos que se
repiten, sino que además ese número sube a 845 cuando considero solamente la columna de `pixels`
... o bien el dataset contiene instancias que etiquetan la misma foto con distintas clases --y por
tanto hay datos mal etiquetados--" (160 photos repeated with a different class). Reproduced with
3,000 synthetic faces (7 expression templates plus identity and noise), 1,400 of them repeated
once, 900 of the repeats with a different emotion; a 144-64-7 MLP, Adam lr 3e-3, batches of 64,
10 epochs. The printed loss is the mean training loss of the last epoch, `acc` the accuracy on 700
held-out faces.

expect: label-conflict
symptom: loss-above 0.3
batch: 13
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

templates = torch.randn(7, 144) * 0.8
identities = torch.randn(50, 144) * 0.5


def make_faces(n):
    y = torch.randint(0, 7, (n,))
    who = torch.randint(0, 50, (n,))
    return (templates[y] + identities[who] + 0.4 * torch.randn(n, 144)).round(decimals=2), y


pixels, emotion = make_faces(3000)
rep = torch.randperm(3000)[:1400]
rep_emotion = emotion[rep].clone()
rep_emotion[:900] = (rep_emotion[:900] + torch.randint(1, 7, (900,))) % 7
pixels = torch.cat([pixels, pixels[rep]])
emotion = torch.cat([emotion, rep_emotion])
test_x, test_y = make_faces(700)


def clean_table(x, y):
    keys = [tuple(row.tolist()) for row in x]
    keep, seen = [], set()
    for i, k in enumerate(keys):
        if (k, int(y[i])) not in seen:
            seen.add((k, int(y[i])))
            keep.append(i)
    return x[keep], y[keep]


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, x, y, epochs):
        loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
        for epoch in range(epochs):
            total, n = 0.0, 0
            for xb, yb in loader:
                loss = F.cross_entropy(self.model(xb), yb)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                total += loss.item() * len(yb)
                n += len(yb)
            self.train_loss = total / n
            print(f"epoch {epoch} loss {self.train_loss:.4f}")

    def accuracy(self, x, y):
        with torch.no_grad():
            return (self.model(x).argmax(1) == y).float().mean().item()


x_tr, y_tr = clean_table(pixels, emotion)
trainer = Trainer(nn.Sequential(nn.Linear(144, 64), nn.ReLU(), nn.Linear(64, 7)), lr=3e-3)
trainer.fit(x_tr, y_tr, epochs=10)
print(f"final_loss={trainer.train_loss:.6g} acc={trainer.accuracy(test_x, test_y):.4f}")
