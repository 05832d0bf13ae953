"""Cross-modal similarity learner: retrieval evaluation over a large validation set."""
import torch
import torch.nn as nn


class SimilarityLearner(nn.Module):
    def __init__(self, text_encoder, image_encoder, dim=256, eval_device="cpu"):
        super().__init__()
        self.text_encoder = text_encoder
        self.image_encoder = image_encoder
        self.text_proj = nn.Linear(text_encoder.out_dim, dim)
        self.image_proj = nn.Linear(image_encoder.out_dim, dim)
        self.eval_device = torch.device(eval_device)

    def embed_text(self, batch):
        return nn.functional.normalize(self.text_proj(self.text_encoder(batch)), dim=-1)

    def embed_image(self, batch):
        return nn.functional.normalize(self.image_proj(self.image_encoder(batch)), dim=-1)

    def evaluate(self, loader, k=10):
        self.eval()
        all_text, all_image = [], []
        with torch.no_grad():
            for texts, images in loader:
                batch_modality_0_embeddings = self.embed_text(texts).to(self.eval_device)
                batch_modality_1_embeddings = self.embed_image(images)
                batch_modality_1_embeddings.to(self.eval_device)  # expect: tensor-op-result-discarded
                all_text.append(batch_modality_0_embeddings)
                all_image.append(batch_modality_1_embeddings)
        text = torch.cat(all_text)
        image = torch.cat(all_image)
        sims = text @ image.t()
        topk = sims.topk(k, dim=1).indices
        targets = torch.arange(text.size(0), device=topk.device)[:, None]
        recall = (topk == targets).any(dim=1).float().mean().item()
        self.train()
        return recall
