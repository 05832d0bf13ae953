"""Fine-tune a BERT-style document classifier with per-epoch dev evaluation (hedwig-like trainer)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler, TensorDataset
from tqdm import tqdm, trange


class TinyBert(nn.Module):
    def __init__(self, vocab=30522, dim=256, n_labels=4, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.segment = nn.Embedding(2, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, dim * 4, dropout=dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 4)
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(dim, n_labels)

    def forward(self, input_ids, segment_ids, input_mask):
        h = self.embed(input_ids) + self.segment(segment_ids)
        h = self.encoder(h, src_key_padding_mask=input_mask == 0)
        return self.classifier(self.dropout(h[:, 0]))


class BertEvaluator:
    def __init__(self, model, dataset, device, batch_size=64):
        self.model, self.device = model, device
        self.loader = DataLoader(dataset, batch_size=batch_size)

    def get_scores(self):
        self.model.eval()
        correct, total, loss = 0, 0, 0.0
        with torch.no_grad():
            for input_ids, input_mask, segment_ids, label_ids in self.loader:
                logits = self.model(input_ids.to(self.device), segment_ids.to(self.device), input_mask.to(self.device))
                label_ids = label_ids.to(self.device)
                loss += F.cross_entropy(logits, label_ids).item()
                correct += (logits.argmax(1) == label_ids).sum().item()
                total += label_ids.size(0)
        return correct / total, loss / len(self.loader)


class BertTrainer:
    def __init__(self, model, optimizer, train_data, dev_data, device, epochs=4, batch_size=32):
        self.model, self.optimizer = model, optimizer
        self.train_data, self.dev_data = train_data, dev_data
        self.device, self.epochs, self.batch_size = device, epochs, batch_size
        self.iterations, self.tr_loss = 0, 0.0

    def train_epoch(self, train_dataloader):
        for batch in tqdm(train_dataloader, desc="Training"):
            input_ids, input_mask, segment_ids, label_ids = (t.to(self.device) for t in batch)
            logits = self.model(input_ids, segment_ids, input_mask)
            loss = F.cross_entropy(logits, label_ids)
            loss.backward()
            self.tr_loss += loss.item()
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.iterations += 1

    def train(self):
        train_sampler = RandomSampler(self.train_data)
        train_dataloader = DataLoader(self.train_data, sampler=train_sampler, batch_size=self.batch_size)
        self.model.train()  # expect: train-mode-not-restored
        for epoch in trange(self.epochs, desc="Epoch"):
            self.train_epoch(train_dataloader)
            dev_acc, dev_loss = BertEvaluator(self.model, self.dev_data, self.device).get_scores()
            tqdm.write(f"epoch {epoch + 1}: dev acc {dev_acc:.4f} dev loss {dev_loss:.4f}")


if __name__ == "__main__":
    def fake(n):
        ids = torch.randint(1, 30522, (n, 128))
        return TensorDataset(ids, torch.ones_like(ids), torch.zeros_like(ids), torch.randint(0, 4, (n,)))

    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = TinyBert().to(dev)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-5)
    BertTrainer(net, opt, fake(512), fake(128), dev).train()
