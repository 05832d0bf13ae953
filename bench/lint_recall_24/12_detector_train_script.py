"""Training script for a one-stage detector on a COCO-style dataset."""
import argparse

import torch
from torch.utils.data import DataLoader


def detection_collate(batch):
    images = torch.stack([b[0] for b in batch])
    targets = [b[1] for b in batch]
    return images, targets


def build(args):
    from mydet.data import CocoDetection
    from mydet.models import build_yolox

    train_dataset = CocoDetection(args.data, split="train")
    val_dataset = CocoDetection(args.data, split="val")
    model = build_yolox(args.variant, num_classes=80)
    train_loader = DataLoader(train_dataset, batch_size=args.batch_size, collate_fn=detection_collate, drop_last=True, num_workers=args.workers)  # expect: train-loader-not-shuffled
    val_loader = DataLoader(val_dataset, batch_size=args.batch_size, collate_fn=detection_collate, num_workers=args.workers)
    return model, train_loader, val_loader


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="/datasets/coco")
    parser.add_argument("--variant", default="yolox-s")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=300)
    args = parser.parse_args()

    model, train_loader, val_loader = build(args)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)

    for epoch in range(args.epochs):
        model.train()
        for images, targets in train_loader:
            losses = model(images, targets)
            loss = sum(losses.values())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()

        model.eval()
        with torch.no_grad():
            n_boxes = sum(len(d["boxes"]) for images, _ in val_loader for d in model(images))
        print(f"epoch {epoch}: {n_boxes} boxes predicted on val")


if __name__ == "__main__":
    main()
