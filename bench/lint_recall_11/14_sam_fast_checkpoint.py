"""Building an image-segmentation model registry and evaluating it on a COCO-style batch."""
from functools import partial

import torch
import torch.nn as nn


class ImageEncoderViT(nn.Module):
    def __init__(self, depth, embed_dim, img_size=1024, patch=16):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, patch, patch)
        layer = nn.TransformerEncoderLayer(embed_dim, 8, 4 * embed_dim, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.neck = nn.Conv2d(embed_dim, 256, 1)

    def forward(self, x):
        x = self.patch_embed(x)
        b, c, h, w = x.shape
        x = self.blocks(x.flatten(2).transpose(1, 2)).transpose(1, 2).reshape(b, c, h, w)
        return self.neck(x)


def _build_sam(encoder_depth, encoder_embed_dim, checkpoint=None):
    image_encoder = ImageEncoderViT(encoder_depth, encoder_embed_dim)
    model = nn.ModuleDict({"image_encoder": image_encoder, "mask_decoder": nn.Conv2d(256, 1, 1)})
    model.eval()
    if checkpoint is not None:
        with open(checkpoint, "rb") as f:
            state_dict = torch.load(f)  # expect: torch-load-unsafe
        model.load_state_dict(state_dict)
    return model


build_sam_vit_b = partial(_build_sam, 12, 768)
build_sam_vit_l = partial(_build_sam, 24, 1024)

sam_model_registry = {"vit_b": build_sam_vit_b, "vit_l": build_sam_vit_l}


@torch.no_grad()
def run_batch(model_type, checkpoint, images, device="cuda"):
    model = sam_model_registry[model_type](checkpoint=checkpoint).to(device)
    feats = model["image_encoder"](images.to(device))
    return torch.sigmoid(model["mask_decoder"](feats))
