# Source: https://github.com/sallymmx/ActionCLIP/issues/24
# Pitfall: the video-text contrastive KL loss uses KLDivLoss with the element-wise mean reduction, so
# the KL is divided by batch size times the number of classes (not the batch alone) and is tiny.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DistributionMatchLoss(nn.Module):
    def __init__(self, temperature_scale=10.0):
        super().__init__()
        self.scale = temperature_scale
        self.error_metric = nn.KLDivLoss(size_average=True, reduce=True)  # expect: kl-div-mean-reduction

    def forward(self, prediction, label):
        batch_size = prediction.shape[0]
        log_p = F.log_softmax(prediction, 1)
        q = F.softmax(label * self.scale, 1)
        return self.error_metric(log_p, q) * batch_size


class DualEncoder(nn.Module):
    def __init__(self, video_dim=512, text_vocab=1000, dim=256):
        super().__init__()
        self.video_proj = nn.Linear(video_dim, dim)
        self.text_emb = nn.EmbeddingBag(text_vocab, dim)
        self.logit_scale = nn.Parameter(torch.tensor(4.6))

    def forward(self, video_feats, text_ids):
        v = F.normalize(self.video_proj(video_feats.mean(1)), dim=-1)
        t = F.normalize(self.text_emb(text_ids), dim=-1)
        logits = self.logit_scale.exp() * v @ t.t()
        return logits, logits.t()


def ground_truth(labels):
    return (labels.unsqueeze(0) == labels.unsqueeze(1)).float()


def train_step(model, criterion, optimizer, video, text, labels):
    model.train()
    logits_v, logits_t = model(video, text)
    gt = ground_truth(labels)
    loss = (criterion(logits_v, gt) + criterion(logits_t, gt)) / 2
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    model = DualEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=5e-5, weight_decay=0.2)
    crit = DistributionMatchLoss()
    for it in range(3):
        labels = torch.randint(0, 8, (16,))
        print(it, train_step(model, crit, opt, torch.randn(16, 8, 512), torch.randint(0, 1000, (16, 12)), labels))
