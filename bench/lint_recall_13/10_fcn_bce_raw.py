"""FCN-8s style binary segmentation trained with BCELoss."""
import torch
import torch.nn as nn
from torchvision import models


class FCNs(nn.Module):
    def __init__(self, n_class=2):
        super().__init__()
        vgg = models.vgg16(weights=None)
        self.features = vgg.features
        self.relu = nn.ReLU(inplace=True)
        self.deconv1 = nn.ConvTranspose2d(512, 256, 3, stride=2, padding=1, output_padding=1)
        self.deconv2 = nn.ConvTranspose2d(256, 64, 3, stride=4, padding=0, output_padding=1)
        self.classifier = nn.Conv2d(64, n_class, kernel_size=1)

    def forward(self, x):
        h = self.features(x)
        h = self.relu(self.deconv1(h))
        h = self.relu(self.deconv2(h))
        return self.classifier(h)


def train(fcn_model, train_loader, epochs=10, device="cuda"):
    criterion = nn.BCELoss().to(device)
    optimizer = torch.optim.SGD(fcn_model.parameters(), lr=1e-2, momentum=0.7)
    for epoch in range(epochs):
        fcn_model.train()
        epoch_loss = 0.0
        for bag, bag_msk in train_loader:
            bag, bag_msk = bag.to(device), bag_msk.to(device).float()
            optimizer.zero_grad()
            output = fcn_model(bag)
            loss = criterion(output, bag_msk)  # expect: bce-on-logits
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch}, loss {epoch_loss / max(len(train_loader), 1):.4f}")
