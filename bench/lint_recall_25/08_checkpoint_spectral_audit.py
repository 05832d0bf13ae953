"""Audit a trained checkpoint: fit a power law to each layer's eigenvalue spectrum (ESD)."""
import argparse

import numpy as np
import torch
import torch.nn as nn


def build_model():
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10),
    )


def layer_matrices(state_dict):
    for name, w in state_dict.items():
        if not name.endswith("weight") or w.dim() < 2:
            continue
        yield name, w.reshape(w.size(0), -1).double()


def esd_alpha(matrix, xmin_quantile=0.5):
    n = max(matrix.shape)
    evals = torch.linalg.svdvals(matrix) ** 2 / n
    evals = evals[evals > 0].numpy()
    xmin = np.quantile(evals, xmin_quantile)
    tail = evals[evals >= xmin]
    if tail.size < 2:
        return float("nan")
    return 1.0 + tail.size / np.sum(np.log(tail / xmin))


def analyze(state_dict_filename):
    state_dict = torch.load(state_dict_filename, map_location=torch.device("cpu"))  # expect: torch-load-unsafe
    model = build_model()
    model.load_state_dict(state_dict)
    rows = []
    for name, mat in layer_matrices(model.state_dict()):
        rows.append((name, tuple(mat.shape), esd_alpha(mat)))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkpoint")
    args = parser.parse_args()
    for name, shape, alpha in analyze(args.checkpoint):
        flag = "over-trained?" if alpha < 2.0 else ""
        print(f"{name:20s} {str(shape):14s} alpha={alpha:.2f} {flag}")


if __name__ == "__main__":
    main()
