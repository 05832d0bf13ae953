# Source: https://github.com/lucidrains/denoising-diffusion-pytorch/commit/698227ae13c196b465506fdc8f84a5711459e800
# Pitfall: the trainer accumulates gradients over gradient_accumulate_every micro-batches but backpropagates the
#   undivided loss each time, so the summed gradient is that many times larger than one batch's.
# Reproduced in our own words, not the original code.
import torch
from torch.optim import Adam


def endless(loader):
    while True:
        for batch in loader:
            yield batch


class Trainer:
    def __init__(self, diffusion, loader, lr=2e-5, gradient_accumulate_every=2, train_num_steps=100000):
        self.model = diffusion.cuda()
        self.dl = endless(loader)
        self.opt = Adam(self.model.parameters(), lr=lr)
        self.gradient_accumulate_every = gradient_accumulate_every
        self.train_num_steps = train_num_steps
        self.step = 0

    def train(self):
        self.model.train()
        while self.step < self.train_num_steps:
            for micro in range(self.gradient_accumulate_every):
                data = next(self.dl).cuda()
                loss = self.model(data)
                print(f"{micro}: {loss.item()}")
                loss.backward()  # expect: accumulation-not-averaged
            self.opt.step()
            self.opt.zero_grad()
            self.step += 1
        print("training completed")
