"""Few-shot prompt-based classification (LM-BFF style): template-wrapped inputs, verbalizer over the mask token."""
import torch
from torch import nn
from torch.utils.data import DataLoader


class PromptDataset(torch.utils.data.Dataset):
    def __init__(self, examples, tokenizer, template, max_len=128):
        self.items = []
        for text, label in examples:
            enc = tokenizer(template.format(text=text), truncation=True, max_length=max_len, padding="max_length", return_tensors="pt")
            self.items.append((enc["input_ids"][0], enc["attention_mask"][0], label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class PromptClassifier(nn.Module):
    def __init__(self, mlm, mask_token_id, label_word_ids):
        super().__init__()
        self.mlm = mlm
        self.mask_token_id = mask_token_id
        self.register_buffer("label_word_ids", torch.tensor(label_word_ids))

    def forward(self, input_ids, attention_mask):
        logits = self.mlm(input_ids=input_ids, attention_mask=attention_mask).logits
        mask_pos = (input_ids == self.mask_token_id).nonzero(as_tuple=True)
        return logits[mask_pos][:, self.label_word_ids]


def run(mlm, tokenizer, train_examples, dev_examples, template, label_word_ids, epochs=5):
    train_dataloader = DataLoader(PromptDataset(train_examples, tokenizer, template), batch_size=8)  # expect: train-loader-not-shuffled
    dev_dataloader = DataLoader(PromptDataset(dev_examples, tokenizer, template), batch_size=32)
    model = PromptClassifier(mlm, tokenizer.mask_token_id, label_word_ids)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        model.train()
        for input_ids, attention_mask, labels in train_dataloader:
            optimizer.zero_grad()
            loss = loss_fn(model(input_ids, attention_mask), labels)
            loss.backward()
            optimizer.step()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for input_ids, attention_mask, labels in dev_dataloader:
                correct += (model(input_ids, attention_mask).argmax(-1) == labels).sum().item()
                total += labels.numel()
        print(f"epoch {epoch}: dev acc {correct / max(total, 1):.3f}")
