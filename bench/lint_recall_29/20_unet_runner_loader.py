"""U-Net runner for retinal vessel patches: builds loaders and launches training."""
import os

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


class PatchDataset(Dataset):
    def __init__(self, image_dir, mask_dir, patch=388):
        self.files = sorted(os.listdir(image_dir))
        self.image_dir, self.mask_dir, self.patch = image_dir, mask_dir, patch

    def __len__(self):
        return len(self.files)

    def __getitem__(self, idx):
        name = self.files[idx]
        img = np.asarray(Image.open(os.path.join(self.image_dir, name)).convert("L"), dtype=np.float32)
        mask = np.asarray(Image.open(os.path.join(self.mask_dir, name)), dtype=np.int64)
        img = img[: self.patch, : self.patch] / 255.0
        mask = (mask[: self.patch, : self.patch] > 0).astype(np.int64)
        return torch.from_numpy(img)[None], torch.from_numpy(mask)


class UnetRunner:
    def __init__(self, params, trainer):
        self.Params = params
        self.trainer = trainer

    def run(self):
        trainset = PatchDataset(self.Params["train_images"], self.Params["train_masks"])
        validationset = PatchDataset(self.Params["val_images"], self.Params["val_masks"])
        trainloader = DataLoader(trainset, batch_size=self.Params["batch_size"],  # expect: train-loader-not-shuffled
                                 num_workers=3, pin_memory=True)
        validationloader = DataLoader(validationset, batch_size=1, shuffle=False, num_workers=3,
                                      pin_memory=True)
        optimizer = torch.optim.Adam(self.trainer.model.parameters(), lr=self.Params["learning_rate"])
        self.trainer.train(optimizer=optimizer, dataloader=trainloader, epochs=self.Params["epochs"],
                           validationloader=validationloader, log_frequency=20)
