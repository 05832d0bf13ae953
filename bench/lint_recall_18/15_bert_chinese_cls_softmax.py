"""Chinese sentiment classification on top of a frozen pretrained BERT encoder (HF-style tutorial loop)."""
import torch
from torch.utils.data import DataLoader
from transformers import AutoModel, AutoTokenizer

device = "cuda" if torch.cuda.is_available() else "cpu"
tokenizer = AutoTokenizer.from_pretrained("bert-base-chinese")
pretrained = AutoModel.from_pretrained("bert-base-chinese").to(device)
for p in pretrained.parameters():
    p.requires_grad_(False)


def collate_fn(batch):
    sents = [text for text, _ in batch]
    labels = torch.LongTensor([label for _, label in batch])
    enc = tokenizer(sents, truncation=True, padding="max_length", max_length=500, return_tensors="pt")
    return enc["input_ids"], enc["attention_mask"], enc["token_type_ids"], labels


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(768, 2)

    def forward(self, input_ids, attention_mask, token_type_ids):
        with torch.no_grad():
            out = pretrained(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
        out = self.fc(out.last_hidden_state[:, 0])
        out = out.softmax(dim=1)  # expect: softmax-before-cross-entropy
        return out


def train(dataset, epochs=1):
    loader = DataLoader(dataset, batch_size=16, collate_fn=collate_fn, shuffle=True, drop_last=True, num_workers=2)
    model = Model().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    criterion = torch.nn.CrossEntropyLoss()
    model.train()
    for _ in range(epochs):
        for i, (input_ids, attention_mask, token_type_ids, labels) in enumerate(loader):
            input_ids, attention_mask = input_ids.to(device), attention_mask.to(device)
            token_type_ids, labels = token_type_ids.to(device), labels.to(device)
            out = model(input_ids, attention_mask, token_type_ids)
            loss = criterion(out, labels)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if i % 5 == 0:
                accuracy = (out.argmax(dim=1) == labels).float().mean().item()
                print(i, loss.item(), accuracy)
            if i == 300:
                break
    return model


@torch.no_grad()
def test(model, dataset):
    model.eval()
    loader = DataLoader(dataset, batch_size=32, collate_fn=collate_fn, shuffle=False)
    correct = total = 0
    for input_ids, attention_mask, token_type_ids, labels in loader:
        out = model(input_ids.to(device), attention_mask.to(device), token_type_ids.to(device))
        correct += (out.argmax(dim=1).cpu() == labels).sum().item()
        total += len(labels)
    return correct / total
