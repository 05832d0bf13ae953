# Source: https://github.com/zysymu/AdaMatch-pytorch/issues/1
# Pitfall: pseudo-label probabilities for the weakly augmented batches are computed with softmax over
# dim 0 (the batch) and then read per sample and class (argmax over classes, confidence mask).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.head(self.features(x))


def adamatch_step(model, optimizer, src_weak, src_strong, src_labels, tgt_weak, tgt_strong, tau=0.9, mu=1.0):
    model.train()
    n_src = src_weak.size(0) + src_strong.size(0)
    logits = model(torch.cat([src_weak, src_strong, tgt_weak, tgt_strong]))
    logits_src = logits[:n_src]
    logits_src_weak = logits_src[:src_weak.size(0)]
    logits_tgt = logits[n_src:]
    logits_tgt_weak = logits_tgt[:tgt_weak.size(0)]
    logits_tgt_strong = logits_tgt[tgt_weak.size(0):]

    probs_src = F.softmax(logits_src_weak, 0)  # expect: softmax-over-batch-dim
    probs_tgt = F.softmax(logits_tgt_weak, 0)  # expect: softmax-over-batch-dim
    ratio = (1e-6 + probs_src.mean(0)) / (1e-6 + probs_tgt.mean(0))
    aligned = F.normalize(probs_tgt * ratio, p=1, dim=1)
    confidence, pseudo = aligned.max(dim=1)
    row_max = probs_src.max(dim=1)[0]
    mask = (confidence >= tau * row_max.mean()).float()

    src_loss = F.cross_entropy(logits_src, torch.cat([src_labels, src_labels]))
    tgt_loss = (F.cross_entropy(logits_tgt_strong, pseudo, reduction="none") * mask).mean()
    loss = src_loss + mu * tgt_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item(), mask.mean().item()


if __name__ == "__main__":
    net = Backbone()
    opt = torch.optim.SGD(net.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for it in range(3):
        xs, xt = torch.rand(16, 3, 32, 32), torch.rand(16, 3, 32, 32)
        ys = torch.randint(0, 10, (16,))
        print(it, adamatch_step(net, opt, xs, xs.flip(-1), ys, xt, xt.flip(-1)))
