"""Text-to-layout box generator -- fixed as the issue and the reproduction say: the label loss is
-log P (NLLLoss on the log of the softmax probabilities) instead of -P (nothing else changed).

Source: https://github.com/jamesli1618/Obj-GAN/issues/30 (Question about NLLLoss)
Report: "In the bbox generation model, you use NLLLoss to comput the loss of label prediction,
but before use NLLLoss you just use softmax function without torch.log, so the value of lloss is
always a negative number"; a user who reproduced the paper's results listed among the needed
changes "correct the label loss from -P to -logP as you pointed out". Reproduced with the box
generator's shape (caption encoder: embedding + bidirectional GRU; decoder: GRU over the
previous object's label embedding and box, dot attention over the caption, a softmax label head
and a box regression head; loss = lloss + box MSE, teacher forcing, Adam lr=1e-3) on synthetic
captions mentioning 1-4 of 80 object categories (two synonyms each, among filler words); the
printed loss is the test label cross-entropy (-log P), `acc` the test label accuracy.

expect: loss-mismatch
symptom: acc-below 0.8
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

N_CAT, N_FILL, MAX_OBJ, CAP_LEN = 80, 60, 4, 12
VOCAB = 1 + 2 * N_CAT + N_FILL                    # 0: pad; 1..160: category synonyms; then fillers
EOS = N_CAT                                       # label N_CAT ends the layout
cat_box = torch.rand(N_CAT, 4)                    # typical (x, y, w, h) of each category


def make(n):
    caps = torch.zeros(n, CAP_LEN, dtype=torch.long)
    labels = torch.full((n, MAX_OBJ + 1), -100, dtype=torch.long)
    boxes = torch.zeros(n, MAX_OBJ + 1, 4)
    for i in range(n):
        k = int(torch.randint(1, MAX_OBJ + 1, (1,)))
        objs = torch.randperm(N_CAT)[:k]
        words = (1 + 2 * objs + torch.randint(0, 2, (k,))).tolist()
        fill = (1 + 2 * N_CAT + torch.randint(0, N_FILL, (CAP_LEN - k,))).tolist()
        slots = sorted(torch.randperm(CAP_LEN)[:k].tolist())
        cap = fill[:]
        for s, w in zip(slots, words):
            cap.insert(s, w)
        caps[i] = torch.tensor(cap[:CAP_LEN])
        labels[i, :k] = objs
        labels[i, k] = EOS
        boxes[i, :k] = cat_box[objs] + 0.05 * torch.randn(k, 4)
    return caps, labels, boxes


class BoxGenerator(nn.Module):
    def __init__(self, hid=128):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 64, padding_idx=0)
        self.encoder = nn.GRU(64, hid // 2, batch_first=True, bidirectional=True)
        self.label_embed = nn.Embedding(N_CAT + 2, 64)           # + EOS + BOS
        self.decoder = nn.GRUCell(64 + 4 + hid, hid)
        self.label_head = nn.Linear(2 * hid, N_CAT + 1)
        self.box_head = nn.Linear(2 * hid + 64, 4)

    def forward(self, caps, labels, boxes):
        enc, _ = self.encoder(self.embed(caps))
        h = enc.mean(1)
        prev_label = torch.full((caps.size(0),), N_CAT + 1, dtype=torch.long)
        prev_box = torch.zeros(caps.size(0), 4)
        ctx = torch.zeros_like(h)
        label_probs, box_preds = [], []
        for t in range(labels.size(1)):
            h = self.decoder(torch.cat([self.label_embed(prev_label), prev_box, ctx], -1), h)
            att = torch.softmax((enc @ h.unsqueeze(-1)).squeeze(-1), -1)
            ctx = (att.unsqueeze(-1) * enc).sum(1)
            label_probs.append(F.softmax(self.label_head(torch.cat([h, ctx], -1)), -1))
            gt = labels[:, t].clamp(min=0)                            # teacher forcing
            box_preds.append(self.box_head(torch.cat([h, ctx, self.label_embed(gt)], -1)))
            prev_label, prev_box = gt, boxes[:, t]
        return torch.stack(label_probs, 1), torch.stack(box_preds, 1)


train, test = make(4000), make(800)
model = BoxGenerator()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.NLLLoss(ignore_index=-100)
for epoch in range(10):
    model.train()
    perm = torch.randperm(len(train[0]))
    for i in range(0, len(perm), 64):
        caps, labels, boxes = (t[perm[i:i + 64]] for t in train)
        label_probs, box_preds = model(caps, labels, boxes)
        lloss = criterion(torch.log(label_probs.reshape(-1, N_CAT + 1) + 1e-12), labels.reshape(-1))
        valid = (labels >= 0) & (labels < N_CAT)
        bloss = F.mse_loss(box_preds[valid], boxes[valid])
        loss = lloss + bloss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        probs, _ = model(*test)
        mask = test[1] >= 0
        test_ce = F.nll_loss(probs[mask].clamp_min(1e-12).log(), test[1][mask]).item()
        acc = (probs[mask].argmax(-1) == test[1][mask]).float().mean().item()
    print(f"epoch {epoch} lloss {lloss.item():.4f} bloss {bloss.item():.4f} test label CE {test_ce:.4f} acc {acc:.4f}")
print(f"final_loss={test_ce:.6g} acc={acc:.4f}")
