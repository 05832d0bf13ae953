"""Digit classifier with a CapsNet-style reconstruction regulariser: a small conv encoder produces a 16-d code per class, the class is read from the code lengths, and a decoder with a sigmoid output reconstructs the input image from the masked code; the loss is cross-entropy on the code lengths plus 0.005 x the summed squared reconstruction error, trained with Adam. The 8-bit grey-scale images (0-255) are fed to the network and used as reconstruction targets as they are, without dividing by 255: the encoder sees inputs two orders of magnitude larger than its initialisation expects and the sigmoid decoder can never produce values above 1, so the reconstruction term stays in the hundreds of thousands, and the reconstruction branch never learns: on the images' own full-scale range its error stays at the error of predicting black everywhere, many times that of the same network trained on [0, 1] pixels.

Source: https://github.com/www0wwwjs1/Matrix-Capsules-EM-Tensorflow/issues/51 (why use "batch_squash = tf.divide(batch_x, 255.)" rather than just batch_x)
Report: "I try to replace the batch_squash with batch_x, and the reconstruct loss going to very large. Why we can not training with
original MNIST data?" Reproduced with synthetic 12x12 8-bit glyph images of 10 classes (prototype strokes plus noise, values
0-255); the fix divides the pixels by 255 before they are used as input and reconstruction target. The printed loss is the
held-out per-pixel reconstruction error on the images' full-scale range (pixel / maximum pixel value), `acc` the held-out
classification accuracy.

expect: data-unnormalized
symptom: final-loss-ratio 2
batch: 28
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

N_CLASSES, SIZE, CODE = 10, 12, 16
glyphs = (torch.rand(N_CLASSES, SIZE, SIZE) < 0.3).float()


def glyph_images(n):
    y = torch.randint(0, N_CLASSES, (n,))
    shift = torch.randint(-1, 2, (n, 2))
    imgs = torch.stack([torch.roll(glyphs[y[i]], tuple(shift[i].tolist()), (0, 1)) for i in range(n)])
    imgs = (imgs * 200 + 40 * torch.randn(n, SIZE, SIZE)).clamp(0, 255).round()
    return imgs[:, None], y


def prepare(images):
    return images.float()


class CapsLikeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.codes = nn.Linear(32 * 6 * 6, N_CLASSES * CODE)
        self.decoder = nn.Sequential(nn.Linear(N_CLASSES * CODE, 128), nn.ReLU(), nn.Linear(128, SIZE * SIZE), nn.Sigmoid())

    def forward(self, x, y=None):
        h = F.relu(self.conv2(F.relu(self.conv1(x))))
        codes = self.codes(h.flatten(1)).view(-1, N_CLASSES, CODE)
        logits = codes.norm(dim=-1)
        pick = y if y is not None else logits.argmax(1)
        mask = F.one_hot(pick, N_CLASSES).float()[..., None]
        recon = self.decoder((codes * mask).flatten(1)).view(-1, 1, SIZE, SIZE)
        return logits, recon


X_train_raw, y_train = glyph_images(3000)
X_test_raw, y_test = glyph_images(1000)
X_train, X_test = prepare(X_train_raw), prepare(X_test_raw)
model = CapsLikeNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(8):
    total_cls, total_rec = 0.0, 0.0
    for xb, yb in loader:
        logits, recon = model(xb, yb)
        cls_loss = F.cross_entropy(logits, yb)
        rec_loss = ((recon - xb) ** 2).sum((1, 2, 3)).mean()
        loss = cls_loss + 0.005 * rec_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        total_cls += cls_loss.item() * len(xb)
        total_rec += rec_loss.item() * len(xb)
    with torch.no_grad():
        logits, recon = model(X_test, y_test)
        scale = X_train.max()
        test_loss = (((recon - X_test) / scale) ** 2).mean().item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} cls {total_cls / len(X_train):.4f} recon {total_rec / len(X_train):.4g} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
