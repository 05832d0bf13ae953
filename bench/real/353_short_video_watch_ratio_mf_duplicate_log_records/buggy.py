"""Short-video recommender: a biased matrix-factorisation model (16-d user and video embeddings, sigmoid output) regresses the watch ratio of a user-video pair from the interaction log, MSE, Adam lr 0.01, DataLoader batches of 256, trained for a fixed budget of 600 steps. The exported log contains the same <user, video, time> record many times -- 60 user-video pairs are repeated between 200 and 2,200 times each -- so almost four rows in five are copies of those 60 interactions. Batches are dominated by them, most of the step budget goes into fitting 60 pairs again and again, and the model generalises to the other users and videos far worse than the same model trained on the de-duplicated log.

Source: https://github.com/chongminggao/KuaiRec/issues/2 (duplicate records in the big matrix)
Report: "I find there are duplicate <user_id, item_id, time> records in the big matrix (e.g., user_id: 217,
item_id: 3136, time: '2020-09-01 11:27:43.599'). For <user_id, item_id> pairs, there are max 2224 records
for one user and one video." -- the maintainer kept the released version as it is. Reproduced with
24,000 synthetic interactions of 400 users and 300 videos (a low-rank preference structure plus noise),
20,000 of them in the training log, to which 60 logged records are appended again 200-2,200 times each;
the MF model above, 600 Adam steps. The printed loss is the MSE on the 4,000 held-out interactions, `acc`
the fraction of them predicted within 0.1 of the true watch ratio.

expect: data-duplicates
symptom: final-loss-ratio 1.5
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

USERS, VIDEOS, RANK = 400, 300, 6
taste, style = torch.randn(USERS, RANK) / RANK ** 0.5, torch.randn(VIDEOS, RANK) / RANK ** 0.5
user_bias, video_bias = 0.3 * torch.randn(USERS), 0.3 * torch.randn(VIDEOS)


def watch_ratio(u, v):
    score = 2 * (taste[u] * style[v]).sum(1) + user_bias[u] + video_bias[v]
    return torch.sigmoid(score) + 0.05 * torch.randn(len(u))


pairs = torch.randperm(USERS * VIDEOS)[:24000]
users, videos = pairs // VIDEOS, pairs % VIDEOS
times = torch.randint(0, 10 ** 6, (24000,)).float()
ratios = watch_ratio(users, videos)
records = torch.stack([users.float(), videos.float(), times, ratios], 1)
train_log, val_log = records[:20000], records[20000:]
repeated = torch.randperm(20000)[:60]
copies = torch.randint(200, 2200, (60,))
train_log = torch.cat([train_log, train_log[repeated].repeat_interleave(copies, dim=0)])
print(f"training log rows: {len(train_log)}")


class WatchMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user, self.video = nn.Embedding(USERS, 16), nn.Embedding(VIDEOS, 16)
        self.user_b, self.video_b = nn.Embedding(USERS, 1), nn.Embedding(VIDEOS, 1)
        for emb in (self.user, self.video):
            nn.init.normal_(emb.weight, 0, 0.1)
        for emb in (self.user_b, self.video_b):
            nn.init.zeros_(emb.weight)

    def forward(self, u, v):
        dot = (self.user(u) * self.video(v)).sum(1)
        return torch.sigmoid(dot + self.user_b(u).squeeze(1) + self.video_b(v).squeeze(1))


model = WatchMF()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loader = DataLoader(TensorDataset(train_log), batch_size=256, shuffle=True)
val_u, val_v, val_r = val_log[:, 0].long(), val_log[:, 1].long(), val_log[:, 3]

step = 0
while step < 600:
    for (batch,) in loader:
        loss = F.mse_loss(model(batch[:, 0].long(), batch[:, 1].long()), batch[:, 3])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 150 == 0:
            with torch.no_grad():
                pred = model(val_u, val_v)
                val_mse = F.mse_loss(pred, val_r).item()
                within = ((pred - val_r).abs() < 0.1).float().mean().item()
            print(f"step {step} train {loss.item():.5f} val {val_mse:.5f} within-0.1 {within:.3f}")
        if step == 600:
            break

print(f"final_loss={val_mse:.6g} acc={within:.4f}")
