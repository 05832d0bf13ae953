"""Run a trained detector over a folder of images and write the boxes to text files."""
import argparse
from pathlib import Path

import cv2
import numpy as np
import torch
import torchvision


def letterbox(img, size=640):
    h, w = img.shape[:2]
    r = size / max(h, w)
    resized = cv2.resize(img, (int(w * r), int(h * r)))
    canvas = np.full((size, size, 3), 114, dtype=np.uint8)
    canvas[: resized.shape[0], : resized.shape[1]] = resized
    return canvas, r


def non_max_suppression(pred, conf_thres=0.25, iou_thres=0.45):
    out = []
    for x in pred:
        x = x[x[:, 4] > conf_thres]
        boxes = torch.cat([x[:, :2] - x[:, 2:4] / 2, x[:, :2] + x[:, 2:4] / 2], dim=1)
        keep = torchvision.ops.nms(boxes, x[:, 4], iou_thres)
        out.append(torch.cat([boxes[keep], x[keep, 4:6]], dim=1))
    return out


def detect(weights, source, out_dir, device):
    model = torch.jit.load(weights, map_location=device)
    model.eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in sorted(Path(source).glob("*.jpg")):
        img0 = cv2.imread(str(path))
        img, ratio = letterbox(img0)
        img = torch.from_numpy(img[:, :, ::-1].copy()).permute(2, 0, 1).float().div(255).unsqueeze(0).to(device)
        pred = model(img)[0]  # expect: validation-in-train-mode
        dets = non_max_suppression(pred)[0]
        with open(out_dir / f"{path.stem}.txt", "w") as f:
            for *xyxy, conf, cls in dets.tolist():
                coords = " ".join(f"{v / ratio:.1f}" for v in xyxy)
                f.write(f"{int(cls)} {conf:.3f} {coords}\n")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="best.torchscript")
    ap.add_argument("--source", default="inference/images")
    ap.add_argument("--out", default="runs/detect")
    a = ap.parse_args()
    detect(a.weights, a.source, Path(a.out), torch.device("cuda" if torch.cuda.is_available() else "cpu"))
