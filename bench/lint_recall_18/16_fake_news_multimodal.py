"""Multimodal fake-news detection: text (BERT pooled) + image (ResNet) features fused by an MLP head."""
import torch
import torch.nn as nn
from sklearn import metrics
from torchvision import models
from transformers import BertModel


class Config:
    num_classes = 2
    hidden = 768
    dropout = 0.2
    lr = 2e-5
    epochs = 5
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Mynet(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.bert = BertModel.from_pretrained("bert-base-chinese")
        resnet = models.resnet18(weights=None)
        resnet.fc = nn.Identity()
        self.resnet = resnet
        self.fuse = nn.Sequential(
            nn.Linear(config.hidden + 512, 256), nn.ReLU(), nn.Dropout(config.dropout),
        )
        self.fc = nn.Linear(256, config.num_classes)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, input_ids, attention_mask, images):
        text = self.bert(input_ids=input_ids, attention_mask=attention_mask).pooler_output
        img = self.resnet(images)
        logits = self.fc(self.fuse(torch.cat([text, img], dim=1)))
        logits = self.softmax(logits)  # expect: softmax-before-cross-entropy
        return logits


def evaluate(model, loader, config):
    model.eval()
    preds, gold = [], []
    with torch.no_grad():
        for ids, mask, imgs, labels in loader:
            out = model(ids.to(config.device), mask.to(config.device), imgs.to(config.device))
            preds.extend(out.argmax(dim=1).cpu().tolist())
            gold.extend(labels.tolist())
    return metrics.accuracy_score(gold, preds), metrics.f1_score(gold, preds, average="macro")


def train(model, train_loader, dev_loader, config):
    model.to(config.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr)
    loss_fn = nn.CrossEntropyLoss()
    best_f1 = 0.0
    for epoch in range(config.epochs):
        model.train()
        for ids, mask, imgs, labels in train_loader:
            ids, mask = ids.to(config.device), mask.to(config.device)
            imgs, labels = imgs.to(config.device), labels.to(config.device)
            outputs = model(ids, mask, imgs)
            loss = loss_fn(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        acc, f1 = evaluate(model, dev_loader, config)
        if f1 > best_f1:
            best_f1 = f1
            torch.save(model.state_dict(), "best_mml.pt")
        print(f"epoch {epoch}: dev acc {acc:.4f} f1 {f1:.4f}")
