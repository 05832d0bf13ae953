"""Aesthetic reward model used to fine-tune a diffusion pipeline with DDPO."""
import os

import torch
from huggingface_hub import hf_hub_download
from transformers import CLIPModel, CLIPProcessor


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(768, 1024),
            torch.nn.Dropout(0.2),
            torch.nn.Linear(1024, 128),
            torch.nn.Dropout(0.2),
            torch.nn.Linear(128, 64),
            torch.nn.Dropout(0.1),
            torch.nn.Linear(64, 16),
            torch.nn.Linear(16, 1),
        )

    def forward(self, embed):
        return self.layers(embed)


class AestheticScorer(torch.nn.Module):
    def __init__(self, dtype, model_id, model_filename):
        super().__init__()
        self.clip = CLIPModel.from_pretrained("openai/clip-vit-large-patch14")
        self.processor = CLIPProcessor.from_pretrained("openai/clip-vit-large-patch14")
        self.mlp = MLP()
        if os.path.isdir(model_id):
            cached_path = os.path.join(model_id, model_filename)
        else:
            cached_path = hf_hub_download(model_id, model_filename)
        state_dict = torch.load(cached_path, map_location=torch.device("cpu"))  # expect: torch-load-unsafe
        self.mlp.load_state_dict(state_dict)
        self.dtype = dtype
        self.eval()

    @torch.no_grad()
    def __call__(self, images):
        device = next(self.parameters()).device
        inputs = self.processor(images=images, return_tensors="pt")
        inputs = {k: v.to(self.dtype).to(device) for k, v in inputs.items()}
        embed = self.clip.get_image_features(**inputs)
        embed = embed / torch.linalg.vector_norm(embed, dim=-1, keepdim=True)
        return self.mlp(embed).squeeze(1)


def aesthetic_reward_fn(hub_model_id, model_filename):
    scorer = AestheticScorer(model_id=hub_model_id, model_filename=model_filename, dtype=torch.float32)
    if torch.cuda.is_available():
        scorer = scorer.cuda()

    def _fn(images, prompts, metadata):
        images = (images * 255).round().clamp(0, 255).to(torch.uint8)
        return scorer(images), {}

    return _fn
