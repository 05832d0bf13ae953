"""Video-text contrastive training where the ground-truth is a (possibly multi-positive) match matrix."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KLLoss(nn.Module):
    def __init__(self, error_metric=nn.KLDivLoss(reduction="mean")):  # expect: kl-div-mean-reduction
        super().__init__()
        self.error_metric = error_metric

    def forward(self, prediction, label):
        batch_size = prediction.shape[0]
        probs1 = F.log_softmax(prediction, 1)
        probs2 = F.softmax(label * 10, 1)
        return self.error_metric(probs1, probs2) * batch_size


def gen_label(labels):
    num = len(labels)
    gt = torch.zeros(num, num)
    for i, label in enumerate(labels):
        for k in range(num):
            if labels[k] == label:
                gt[i, k] = 1
    return gt


def train_epoch(model_image, model_text, fusion, loader, optimizer, logit_scale, device="cuda"):
    loss_img, loss_txt = KLLoss(), KLLoss()
    model_image.train()
    model_text.train()
    for images, texts, class_ids in loader:
        images, texts = images.to(device), texts.to(device)
        b, t = images.shape[:2]
        image_emb = model_image(images.flatten(0, 1)).view(b, t, -1)
        image_emb = fusion(image_emb)
        text_emb = model_text(texts)
        image_emb = image_emb / image_emb.norm(dim=-1, keepdim=True)
        text_emb = text_emb / text_emb.norm(dim=-1, keepdim=True)
        logits_per_image = logit_scale.exp() * image_emb @ text_emb.t()
        logits_per_text = logits_per_image.t()
        ground_truth = gen_label(class_ids.tolist()).to(device)
        total_loss = (loss_img(logits_per_image, ground_truth) + loss_txt(logits_per_text, ground_truth)) / 2
        optimizer.zero_grad()
        total_loss.backward()
        optimizer.step()
