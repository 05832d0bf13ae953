"""ImageNet evaluation for a pretrained lightweight ViT: load weights from disk, report top-1."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def load_state_dict_from_file(file: str, only_state_dict=True):
    file = os.path.realpath(os.path.expanduser(file))
    checkpoint = torch.load(file, map_location="cpu")  # expect: torch-load-unsafe
    if only_state_dict and "state_dict" in checkpoint:
        checkpoint = checkpoint["state_dict"]
    return checkpoint


def build_eval_loader(root, image_size=224, batch_size=100, workers=8):
    tfm = transforms.Compose([
        transforms.Resize(int(image_size / 0.95)),
        transforms.CenterCrop(image_size),
        transforms.ToTensor(),
        transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ])
    dataset = datasets.ImageFolder(os.path.join(root, "val"), tfm)
    return DataLoader(dataset, batch_size=batch_size, num_workers=workers, pin_memory=True)


def evaluate(model: nn.Module, weight_url: str, data_root: str, device="cuda"):
    model.load_state_dict(load_state_dict_from_file(weight_url))
    model = model.to(device)
    model.eval()
    correct, total = 0, 0
    with torch.inference_mode():
        for images, labels in build_eval_loader(data_root):
            images, labels = images.to(device), labels.to(device)
            logits = model(images)
            correct += (logits.argmax(dim=1) == labels).sum().item()
            total += labels.numel()
    print(f"top1 = {100.0 * correct / total:.2f}")
    return correct / total
