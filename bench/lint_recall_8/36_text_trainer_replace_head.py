# Source: https://github.com/feedly/transfer-nlp/pull/14
# Pitfall: fine-tuning swaps in a new classifier head after the trainer already built its optimizer
# from the old model.parameters(); the new layer's weights are not in the optimizer and never train.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextClassifier(nn.Module):
    def __init__(self, vocab=5000, dim=128, num_labels=4):
        super().__init__()
        self.num_labels = num_labels
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.ReLU())
        self.classifier = nn.Sequential(nn.Dropout(0.1), nn.Linear(dim, num_labels))

    def forward(self, ids):
        return self.classifier(self.encoder(self.embed(ids)))


class Trainer:
    def __init__(self, model, lr=1e-3, device="cpu"):
        self.device = device
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)

    def finetune_last_layer(self, num_labels):
        for param in self.model.parameters():
            param.requires_grad = False
        number_features = self.model.classifier[-1].in_features
        features = list(self.model.classifier.children())[:-1]
        features.append(nn.Linear(number_features, num_labels))
        self.model.classifier = nn.Sequential(*features)  # expect: optimizer-misses-params
        self.model.num_labels = num_labels
        self.model = self.model.to(self.device)

    def train_epoch(self, batches):
        self.model.train()
        total = 0.0
        for ids, labels in batches:
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(ids.to(self.device)), labels.to(self.device))
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / len(batches)


if __name__ == "__main__":
    trainer = Trainer(TextClassifier())
    source = [(torch.randint(0, 5000, (32, 20)), torch.randint(0, 4, (32,))) for _ in range(5)]
    print("pretrain", trainer.train_epoch(source))
    trainer.finetune_last_layer(num_labels=7)
    target = [(torch.randint(0, 5000, (32, 20)), torch.randint(0, 7, (32,))) for _ in range(5)]
    print("finetune", trainer.train_epoch(target))
