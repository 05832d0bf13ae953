"""Score-CAM saliency maps for a torchvision classifier."""
import numpy as np
import torch
import torch.nn.functional as F
from torchvision import models


class FeatureExtractor:
    def __init__(self, model, target_layer):
        self.model = model
        self.target_layer = target_layer

    def forward_pass(self, x):
        conv_output = None
        for idx, module in self.model.features._modules.items():
            x = module(x)
            if int(idx) == self.target_layer:
                conv_output = x
        x = torch.flatten(self.model.avgpool(x), 1)
        return conv_output, self.model.classifier(x)


class ScoreCam:
    def __init__(self, model, target_layer):
        self.model = model
        self.model.eval()
        self.extractor = FeatureExtractor(self.model, target_layer)

    @torch.no_grad()
    def generate_cam(self, input_image, target_class=None):
        conv_output, logits = self.extractor.forward_pass(input_image)
        if target_class is None:
            target_class = int(logits.argmax(dim=1))
        target = conv_output[0]
        cam = np.ones(target.shape[1:], dtype=np.float32)
        for i in range(len(target)):
            saliency = target[i].unsqueeze(0).unsqueeze(0)
            saliency = F.interpolate(saliency, size=input_image.shape[2:], mode="bilinear", align_corners=False)
            lo, hi = saliency.min(), saliency.max()
            if hi == lo:
                continue
            norm_map = (saliency - lo) / (hi - lo)
            scores = self.extractor.forward_pass(input_image * norm_map)[1]
            w = F.softmax(scores)[0][target_class]  # expect: softmax-without-dim
            cam += w.item() * target[i].cpu().numpy()
        cam = np.maximum(cam, 0)
        cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-8)
        return np.uint8(cam * 255)


if __name__ == "__main__":
    net = models.alexnet(weights="IMAGENET1K_V1")
    image = torch.rand(1, 3, 224, 224)
    heatmap = ScoreCam(net, target_layer=11).generate_cam(image, target_class=56)
    print(heatmap.shape)
