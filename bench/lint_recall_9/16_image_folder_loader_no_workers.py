# Source: https://github.com/lucidrains/denoising-diffusion-pytorch/commit/ecc6f309016246d38404c9a5a15d401c816463be
# Pitfall: images are opened from disk and augmented in __getitem__, but the GPU trainer's DataLoader keeps the
#   default num_workers=0, so decoding happens in the training process and the GPU waits on every batch.
# Reproduced in our own words, not the original code.
from pathlib import Path

import torch
from PIL import Image
from torch.utils import data
from torchvision import transforms as T


class FolderImages(data.Dataset):
    def __init__(self, folder, image_size, exts=("jpg", "jpeg", "png")):
        self.paths = [p for ext in exts for p in Path(folder).glob(f"**/*.{ext}")]
        self.transform = T.Compose([
            T.Resize(image_size),
            T.RandomHorizontalFlip(),
            T.CenterCrop(image_size),
            T.ToTensor(),
        ])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        img = Image.open(self.paths[index]).convert("RGB")
        return self.transform(img)


def cycle(dl):
    while True:
        for batch in dl:
            yield batch


class Trainer:
    def __init__(self, diffusion_model, folder, image_size=128, batch_size=32, lr=2e-5):
        self.model = diffusion_model.cuda()
        self.ds = FolderImages(folder, image_size)
        self.dl = cycle(data.DataLoader(self.ds, batch_size=batch_size, shuffle=True, pin_memory=True))  # expect: dataloader-blocking
        self.opt = torch.optim.Adam(diffusion_model.parameters(), lr=lr)

    def train(self, steps):
        self.model.train()
        for step in range(steps):
            batch = next(self.dl).cuda(non_blocking=True)
            loss = self.model(batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if step % 100 == 0:
                print(step, loss.item())
