import torch
import torch.nn as nn
import torch.nn.functional as F


class PyramidPoolingHead(nn.Module):
    """Scene-parsing decoder: pyramid pooling over the last encoder stage."""

    def __init__(self, num_class=150, fc_dim=2048, pool_scales=(1, 2, 3, 6), use_softmax=False):
        super().__init__()
        self.use_softmax = use_softmax
        self.ppm = nn.ModuleList()
        for scale in pool_scales:
            self.ppm.append(nn.Sequential(
                nn.AdaptiveAvgPool2d(scale),
                nn.Conv2d(fc_dim, 512, kernel_size=1, bias=False),
                nn.BatchNorm2d(512),
                nn.ReLU(inplace=True),
            ))
        self.conv_last = nn.Sequential(
            nn.Conv2d(fc_dim + len(pool_scales) * 512, 512, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(512),
            nn.ReLU(inplace=True),
            nn.Dropout2d(0.1),
            nn.Conv2d(512, num_class, kernel_size=1),
        )

    def forward(self, conv_out, seg_size=None):
        conv5 = conv_out[-1]
        h, w = conv5.shape[2:]
        ppm_out = [conv5]
        for pool in self.ppm:
            ppm_out.append(F.interpolate(pool(conv5), (h, w), mode="bilinear", align_corners=False))
        x = self.conv_last(torch.cat(ppm_out, 1))

        if self.use_softmax:  # inference only
            x = F.interpolate(x, size=seg_size, mode="bilinear", align_corners=False)
            x = nn.functional.softmax(x)  # expect: softmax-without-dim
            return x
        return F.log_softmax(x, dim=1)


class SegmentationModule(nn.Module):
    def __init__(self, encoder, decoder, ignore_index=-1):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.crit = nn.NLLLoss(ignore_index=ignore_index)

    def forward(self, feed, seg_size=None):
        if seg_size is None:
            pred = self.decoder(self.encoder(feed["img_data"]))
            loss = self.crit(pred, feed["seg_label"])
            valid = (feed["seg_label"] >= 0).long()
            correct = ((pred.argmax(1) == feed["seg_label"]).long() * valid).sum()
            acc = correct.float() / (valid.sum().float() + 1e-10)
            return loss, acc
        return self.decoder(self.encoder(feed["img_data"]), seg_size=seg_size)


def train_one_epoch(module, loader, optimizer, history, epoch):
    module.train()
    for i, batch in enumerate(loader):
        optimizer.zero_grad()
        loss, acc = module(batch)
        loss.backward()
        optimizer.step()
        history["loss"].append(loss.item())
        history["acc"].append(acc.item())
        if i % 20 == 0:
            print(f"epoch {epoch} iter {i}: loss {loss.item():.4f} acc {acc.item():.3f}")
