"""StarGAN-style solver: translate a fixed batch into every target domain for monitoring."""
import os
import torch
import torch.nn.functional as F
from torch.autograd import Variable
from torchvision.utils import save_image


class Solver:
    def __init__(self, G, D, c_dim, sample_dir, lr=1e-4, device="cuda"):
        self.G, self.D = G.to(device), D.to(device)
        self.c_dim = c_dim
        self.sample_dir = sample_dir
        self.device = device
        self.g_optimizer = torch.optim.Adam(self.G.parameters(), lr, betas=(0.5, 0.999))
        self.d_optimizer = torch.optim.Adam(self.D.parameters(), lr, betas=(0.5, 0.999))

    def label2onehot(self, labels, dim):
        out = torch.zeros(labels.size(0), dim)
        out[torch.arange(labels.size(0)), labels.long()] = 1
        return out

    def denorm(self, x):
        return ((x + 1) / 2).clamp_(0, 1)

    def sample_fixed(self, x_fixed, step):
        c_trg_list = []
        for i in range(self.c_dim):
            c_trg = self.label2onehot(torch.ones(x_fixed.size(0)) * i, self.c_dim)
            c_trg_list.append(Variable(c_trg.to(self.device), volatile=True))  # expect: volatile-variable
        x_fake_list = [x_fixed]
        for c_trg in c_trg_list:
            x_fake_list.append(self.G(x_fixed, c_trg))
        x_concat = torch.cat(x_fake_list, dim=3)
        save_image(self.denorm(x_concat.data.cpu()), os.path.join(self.sample_dir, f"{step}-images.jpg"))

    def train_step(self, x_real, label_org, label_trg, lambda_cls=1.0, lambda_rec=10.0):
        c_org = self.label2onehot(label_org, self.c_dim).to(self.device)
        c_trg = self.label2onehot(label_trg, self.c_dim).to(self.device)
        x_real = x_real.to(self.device)
        label_trg = label_trg.to(self.device)

        out_src, _ = self.D(x_real)
        x_fake = self.G(x_real, c_trg)
        out_fake, _ = self.D(x_fake.detach())
        d_loss = -out_src.mean() + out_fake.mean()
        self.d_optimizer.zero_grad()
        d_loss.backward()
        self.d_optimizer.step()

        x_fake = self.G(x_real, c_trg)
        out_src, out_cls = self.D(x_fake)
        g_loss_cls = F.cross_entropy(out_cls, label_trg)
        x_rec = self.G(x_fake, c_org)
        g_loss_rec = torch.mean(torch.abs(x_real - x_rec))
        g_loss = -out_src.mean() + lambda_cls * g_loss_cls + lambda_rec * g_loss_rec
        self.g_optimizer.zero_grad()
        g_loss.backward()
        self.g_optimizer.step()
        return d_loss.item(), g_loss.item()
