"""Custom BERT pipeline: a classification head trained with cross-entropy."""
import torch
import torch.nn as nn
from transformers import BertModel


class BertClassifier(nn.Module):
    def __init__(self, n_classes, pretrained="bert-base-uncased", dropout=0.1):
        super().__init__()
        self.bert = BertModel.from_pretrained(pretrained)
        self.drop = nn.Dropout(dropout)
        self.classifier = nn.Linear(self.bert.config.hidden_size, n_classes)

    def forward(self, input_ids, attention_mask):
        pooled = self.bert(input_ids=input_ids, attention_mask=attention_mask).pooler_output
        return self.classifier(self.drop(pooled))


def train_model(model, loaders, device, num_epochs=3, lr=2e-5):
    criterion = nn.CrossEntropyLoss()
    softmax = nn.Softmax(dim=1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            running_loss, running_correct, n = 0.0, 0, 0
            for batch in loaders[phase]:
                ids = batch["input_ids"].to(device)
                mask = batch["attention_mask"].to(device)
                labels = batch["labels"].to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = softmax(model(ids, mask))
                    loss = criterion(outputs, labels)  # expect: softmax-before-cross-entropy
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * ids.size(0)
                running_correct += (outputs.argmax(dim=1) == labels).sum().item()
                n += ids.size(0)
            print(f"{epoch} {phase} loss {running_loss / n:.4f} acc {running_correct / n:.4f}")
    return model
