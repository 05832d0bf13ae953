# Source: https://github.com/UKPLab/sentence-transformers/commit/443cb10ec8a9e15a3d865529b77276ae7e6322e9
# Pitfall: for single-label scoring the cross-encoder applies a default nn.Sigmoid activation to the logits and
#   trains with nn.BCELoss on the probabilities, instead of BCEWithLogitsLoss on the raw logits (less stable).
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup


class PairScorer:
    def __init__(self, model_name, num_labels=1, max_length=256, device="cuda"):
        self.model = AutoModelForSequenceClassification.from_pretrained(model_name, num_labels=num_labels).to(device)
        self.tokenizer = AutoTokenizer.from_pretrained(model_name)
        self.num_labels = num_labels
        self.max_length = max_length
        self.device = device

    def collate(self, batch):
        texts = [(ex["query"], ex["passage"]) for ex in batch]
        feats = self.tokenizer(texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
        labels = torch.tensor([ex["label"] for ex in batch],
                              dtype=torch.float if self.num_labels == 1 else torch.long)
        return feats, labels

    def fit(self, train_examples, epochs=1, batch_size=16, lr=2e-5, warmup_steps=100, loss_fct=None, activation_fct=None):
        loader = DataLoader(train_examples, batch_size=batch_size, shuffle=True, collate_fn=self.collate)
        if loss_fct is None:
            loss_fct = nn.BCELoss() if self.num_labels == 1 else nn.CrossEntropyLoss()
        if activation_fct is None:
            activation_fct = nn.Sigmoid() if self.num_labels == 1 else nn.Identity()
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr, weight_decay=0.01)
        scheduler = get_linear_schedule_with_warmup(optimizer, warmup_steps, len(loader) * epochs)
        self.model.train()
        for _ in range(epochs):
            for features, labels in loader:
                features = {k: v.to(self.device) for k, v in features.items()}
                labels = labels.to(self.device)
                model_predictions = self.model(**features, return_dict=True)
                logits = activation_fct(model_predictions.logits)
                if self.num_labels == 1:
                    logits = logits.view(-1)
                loss_value = loss_fct(logits, labels)  # expect: sigmoid-before-bce
                loss_value.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()
                scheduler.step()
