# Source: https://github.com/NVlabs/Deep_Object_Pose/issues/88
# Pitfall: num_workers set to 0 for a dataset that reads and augments full-resolution images
# per sample; training is bottlenecked on loading.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader, Dataset
from PIL import Image
import torchvision.transforms as T


class PoseDataset(Dataset):
    def __init__(self, paths, targets):
        self.paths, self.targets = paths, targets
        self.tf = T.Compose([T.Resize(400), T.ColorJitter(0.2, 0.2, 0.2), T.ToTensor()])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        return self.tf(Image.open(self.paths[i]).convert("RGB")), self.targets[i]


def train(net, paths, targets, epochs):
    loader = DataLoader(PoseDataset(paths, targets), batch_size=32, shuffle=True, num_workers=0, pin_memory=True)  # expect: dataloader-blocking
    net = net.cuda()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    for _ in range(epochs):
        for img, target in loader:
            opt.zero_grad()
            loss = ((net(img.cuda()) - target.cuda()) ** 2).mean()
            loss.backward()
            opt.step()
