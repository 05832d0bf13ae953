"""Flood-mask evaluation on SAR tiles: mask out the raster's nodata pixels before scoring."""
import numpy as np
import rasterio
import torch


def read_tile(path):
    with rasterio.open(path) as src:
        band = src.read(1).astype(np.float32)
        nodata = src.nodata if src.nodata is not None else np.nan
    return band, nodata


def valid_mask(band, nodata):
    if nodata == np.nan:  # expect: nan-equality-check
        return ~np.isnan(band)
    return band != nodata


@torch.no_grad()
def score_tiles(model, tile_paths, label_paths, device="cuda", threshold=0.5):
    model.eval()
    inter, union = 0, 0
    for tile_path, label_path in zip(tile_paths, label_paths):
        band, nodata = read_tile(tile_path)
        label, _ = read_tile(label_path)
        mask = valid_mask(band, nodata)
        x = torch.from_numpy(np.nan_to_num(band, nan=0.0))[None, None].to(device)
        prob = torch.sigmoid(model(x))[0, 0].cpu().numpy()
        pred = (prob > threshold) & mask
        truth = (label > 0) & mask
        inter += int((pred & truth).sum())
        union += int((pred | truth).sum())
    return inter / max(union, 1)
