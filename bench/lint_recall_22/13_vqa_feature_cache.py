"""Pre-computes ResNet grid features for every COCO image used by the VQA model."""
import argparse

import h5py
import torch
import torch.nn as nn
import torchvision.models as models
import torchvision.transforms as T
from torch.autograd import Variable
from torch.utils.data import DataLoader
from torchvision.datasets import ImageFolder
from tqdm import tqdm


class GridFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        backbone = models.resnet152(weights=models.ResNet152_Weights.IMAGENET1K_V1)
        self.body = nn.Sequential(*list(backbone.children())[:-2])

    def forward(self, x):
        return self.body(x)


def build_loader(root, image_size, batch_size, workers):
    transform = T.Compose([
        T.Resize(image_size),
        T.CenterCrop(image_size),
        T.ToTensor(),
        T.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
    ])
    dataset = ImageFolder(root, transform=transform)
    return DataLoader(dataset, batch_size=batch_size, num_workers=workers,
                      shuffle=False, pin_memory=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", required=True)
    parser.add_argument("--out", default="resnet-14x14.h5")
    parser.add_argument("--image-size", type=int, default=448)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()

    net = GridFeatures().cuda()
    net.eval()
    loader = build_loader(args.images, args.image_size, args.batch_size, args.workers)
    grid = args.image_size // 32
    with h5py.File(args.out, "w", libver="latest") as fd:
        features = fd.create_dataset("features", shape=(len(loader.dataset), 2048, grid, grid),
                                     dtype="float16")
        labels = fd.create_dataset("ids", shape=(len(loader.dataset),), dtype="int32")
        i = 0
        for imgs, ids in tqdm(loader):
            imgs = Variable(imgs.cuda(), volatile=True)  # expect: volatile-variable
            out = net(imgs)
            j = i + imgs.size(0)
            features[i:j] = out.data.cpu().numpy().astype("float16")
            labels[i:j] = ids.numpy().astype("int32")
            i = j


if __name__ == "__main__":
    main()
