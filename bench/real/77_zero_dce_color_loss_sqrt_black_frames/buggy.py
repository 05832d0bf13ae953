"""Zero-DCE++ low-light enhancement: the colour-constancy loss takes sqrt(Drg^2+Drb^2+Dgb^2) with no
epsilon, whose gradient is inf*0 = NaN on an image whose channel means are equal (a black frame).

Source: https://github.com/Li-Chongyi/Zero-DCE_extension/issues/2 ([nan loss occur])
Report: "nan loss occured when training on some images. How to solve this?" (others: "same
question"). Answer that solved it: "This may be caused by the color loss defined in L_color
class (line 9 in Myloss.py), where torch.pow(xx+xx+xx, 0.5) is used. Note that the gradient of
sqrt(x) is 1/2*sqrt(x), which is not derivable when x=0 ... by change torch.pow(xx+xx+xx, 0.5)
to torch.pow(xx+xx+xx+1e-5), this problem is solved in my case." Reproduced with a small
Zero-DCE++ net (7 depthwise-separable conv layers, 32 channels, tanh curve maps applied 8 times
as LE(x) = x + r(x^2 - x)), the repo's four zero-reference losses with its weights (1600 TV +
1 spatial + 5 colour + 10 exposure, E = 0.6), Adam 1e-4 with weight decay 1e-4, gradient-norm
clipping at 0.1 and batch 8 (lowlight_train.py defaults), on
synthetic under-exposed 32x32 RGB scenes among which a few frames are completely black (as
multi-exposure low-light sequences contain): LE(0) = 0 in every channel, so the colour loss of
such a frame is exactly sqrt(0).

expect: unstable-op
symptom: nonfinite
batch: 4
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


def make_scenes(n, size=32):
    """Smooth colour scenes darkened to low light; every 40th frame is completely black."""
    base = F.interpolate(torch.rand(n, 3, 4, 4), size=size, mode="bilinear", align_corners=False)
    exposure = 0.05 + 0.25 * torch.rand(n, 1, 1, 1)
    imgs = (base ** 2.2 * exposure + 0.01 * torch.rand(n, 3, size, size)).clamp(0, 1)
    imgs[::40] = 0.0
    return imgs


class CSDN_Tem(nn.Module):  # depthwise separable conv
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.depth_conv = nn.Conv2d(in_ch, in_ch, 3, 1, 1, groups=in_ch)
        self.point_conv = nn.Conv2d(in_ch, out_ch, 1)

    def forward(self, x):
        return self.point_conv(self.depth_conv(x))


class enhance_net_nopool(nn.Module):
    def __init__(self, nf=32):
        super().__init__()
        self.relu = nn.ReLU(inplace=True)
        self.e_conv1 = CSDN_Tem(3, nf)
        self.e_conv2 = CSDN_Tem(nf, nf)
        self.e_conv3 = CSDN_Tem(nf, nf)
        self.e_conv4 = CSDN_Tem(nf, nf)
        self.e_conv5 = CSDN_Tem(nf * 2, nf)
        self.e_conv6 = CSDN_Tem(nf * 2, nf)
        self.e_conv7 = CSDN_Tem(nf * 2, 3)

    def enhance(self, x, x_r):
        for _ in range(8):
            x = x + x_r * (torch.pow(x, 2) - x)
        return x

    def forward(self, x):
        x1 = self.relu(self.e_conv1(x))
        x2 = self.relu(self.e_conv2(x1))
        x3 = self.relu(self.e_conv3(x2))
        x4 = self.relu(self.e_conv4(x3))
        x5 = self.relu(self.e_conv5(torch.cat([x3, x4], 1)))
        x6 = self.relu(self.e_conv6(torch.cat([x2, x5], 1)))
        x_r = torch.tanh(self.e_conv7(torch.cat([x1, x6], 1)))
        return self.enhance(x, x_r), x_r


class L_color(nn.Module):
    def forward(self, x):
        mean_rgb = torch.mean(x, [2, 3], keepdim=True)
        mr, mg, mb = torch.split(mean_rgb, 1, dim=1)
        Drg = torch.pow(mr - mg, 2)
        Drb = torch.pow(mr - mb, 2)
        Dgb = torch.pow(mb - mg, 2)
        k = torch.pow(torch.pow(Drg, 2) + torch.pow(Drb, 2) + torch.pow(Dgb, 2), 0.5)
        return k


class L_spa(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.zeros(4, 1, 3, 3)
        k[0, 0, 1, 0], k[1, 0, 1, 2], k[2, 0, 0, 1], k[3, 0, 2, 1] = -1, -1, -1, -1
        k[:, 0, 1, 1] = 1
        self.register_buffer("weight", k)
        self.pool = nn.AvgPool2d(4)

    def forward(self, org, enhance):
        org_pool = self.pool(org.mean(1, keepdim=True))
        enhance_pool = self.pool(enhance.mean(1, keepdim=True))
        d_org = F.conv2d(org_pool, self.weight, padding=1)
        d_enh = F.conv2d(enhance_pool, self.weight, padding=1)
        return torch.pow(d_org - d_enh, 2).sum(1, keepdim=True)


class L_exp(nn.Module):
    def __init__(self, patch_size=8, mean_val=0.6):
        super().__init__()
        self.pool = nn.AvgPool2d(patch_size)
        self.mean_val = mean_val

    def forward(self, x):
        mean = self.pool(x.mean(1, keepdim=True))
        return torch.mean(torch.pow(mean - self.mean_val, 2))


class L_TV(nn.Module):
    def forward(self, x):
        b, _, h, w = x.shape
        count_h = (h - 1) * w
        count_w = h * (w - 1)
        h_tv = torch.pow(x[:, :, 1:, :] - x[:, :, :h - 1, :], 2).sum()
        w_tv = torch.pow(x[:, :, :, 1:] - x[:, :, :, :w - 1], 2).sum()
        return 2 * (h_tv / count_h + w_tv / count_w) / b


images = make_scenes(400)
DCE_net = enhance_net_nopool()
L_color_, L_spa_, L_exp_, L_TV_ = L_color(), L_spa(), L_exp(8, 0.6), L_TV()
optimizer = torch.optim.Adam(DCE_net.parameters(), lr=1e-4, weight_decay=1e-4)
losses = []
for epoch in range(3):
    perm = torch.randperm(len(images))
    for iteration, i in enumerate(range(0, len(perm), 8)):
        img_lowlight = images[perm[i:i + 8]]
        enhanced_image, A = DCE_net(img_lowlight)
        Loss_TV = 1600 * L_TV_(A)
        loss_spa = torch.mean(L_spa_(enhanced_image, img_lowlight))
        loss_col = 5 * torch.mean(L_color_(enhanced_image))
        loss_exp = 10 * torch.mean(L_exp_(enhanced_image))
        loss = Loss_TV + loss_spa + loss_col + loss_exp
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(DCE_net.parameters(), 0.1)
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-50:]) / 50:.4f}")

print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc=nan")
