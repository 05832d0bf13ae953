"""Clip-level video classification: average per-clip class scores into a video score."""
import json
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class Tiny3DNet(nn.Module):
    def __init__(self, num_classes=101):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(3, 32, kernel_size=3, padding=1),
            nn.BatchNorm3d(32),
            nn.ReLU(inplace=True),
            nn.MaxPool3d(2),
            nn.Conv3d(32, 64, kernel_size=3, padding=1),
            nn.BatchNorm3d(64),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool3d(1),
        )
        self.fc = nn.Linear(64, num_classes)

    def forward(self, clips):
        h = self.features(clips).flatten(1)
        return self.fc(h)


def summarize_video(clip_scores, class_names, topk=5):
    video_score = torch.stack(clip_scores).mean(dim=0)
    values, indices = video_score.topk(topk)
    return [
        {"label": class_names[i], "score": float(v)}
        for v, i in zip(values.tolist(), indices.tolist())
    ]


def run_test(loader, model, class_names, device, use_softmax=True):
    model.eval()
    buffers = defaultdict(list)
    with torch.no_grad():
        for clips, video_ids in loader:
            clips = clips.to(device)
            outputs = model(clips)
            if use_softmax:
                outputs = F.softmax(outputs)  # expect: softmax-without-dim
            for j in range(outputs.size(0)):
                buffers[video_ids[j]].append(outputs[j].cpu())

    results = {}
    for vid, scores in buffers.items():
        results[vid] = summarize_video(scores, class_names)
    return results


def main(test_set, class_names, checkpoint, out_path="val_results.json"):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Tiny3DNet(num_classes=len(class_names)).to(device)
    state = torch.load(checkpoint, map_location=device, weights_only=True)
    model.load_state_dict(state["state_dict"])
    loader = DataLoader(test_set, batch_size=16, shuffle=False, num_workers=4, pin_memory=True)
    results = run_test(loader, model, class_names, device)
    with open(out_path, "w") as f:
        json.dump({"results": results}, f)
