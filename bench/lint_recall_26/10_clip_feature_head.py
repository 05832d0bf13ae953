"""CLIP image/text matching head fine-tuned in a LightningModule."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl
from transformers import CLIPModel


class CLIPForImageText(nn.Module):
    def __init__(self, checkpoint_name="openai/clip-vit-base-patch32"):
        super().__init__()
        self.model = CLIPModel.from_pretrained(checkpoint_name)
        self.logit_scale = self.model.logit_scale

    def forward(self, pixel_values, input_ids, attention_mask):
        image_features = self.model.get_image_features(pixel_values=pixel_values)
        text_features = self.model.get_text_features(input_ids=input_ids, attention_mask=attention_mask)
        image_features = image_features / image_features.norm(dim=-1, keepdim=True)  # expect: unguarded-zero
        text_features = F.normalize(text_features, dim=-1, eps=1e-6)
        return self.logit_scale.exp() * image_features @ text_features.t()


class CLIPFineTuner(pl.LightningModule):
    def __init__(self, lr=1e-5):
        super().__init__()
        self.net = CLIPForImageText()
        self.lr = lr

    def _contrastive(self, batch):
        logits = self.net(batch["pixel_values"], batch["input_ids"], batch["attention_mask"])
        labels = torch.arange(logits.size(0), device=logits.device)
        return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2

    def training_step(self, batch, batch_idx):
        loss = self._contrastive(batch)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        self.log("val_loss", self._contrastive(batch))

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr, weight_decay=0.1)
