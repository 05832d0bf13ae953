"""Plain PyTorch loop fine-tuning a T5 adapter (no HF Trainer)."""
import torch
from torch.utils.data import DataLoader
from transformers import AutoTokenizer, T5ForConditionalGeneration
from transformers.adapters import PfeifferConfig


def build(model_name="t5-base", task_name="sst2", lr=1e-4):
    tokenizer = AutoTokenizer.from_pretrained(model_name)
    model = T5ForConditionalGeneration.from_pretrained(model_name)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    adapter_config = PfeifferConfig(reduction_factor=16)
    model.add_adapter(task_name, config=adapter_config)  # expect: optimizer-misses-params
    model.train_adapter(task_name)
    return tokenizer, model, optimizer


def collate(tokenizer):
    def _fn(batch):
        enc = tokenizer([b["source"] for b in batch], padding=True, truncation=True, return_tensors="pt")
        lab = tokenizer([b["target"] for b in batch], padding=True, truncation=True, return_tensors="pt")
        labels = lab.input_ids
        labels[labels == tokenizer.pad_token_id] = -100
        enc["labels"] = labels
        return enc
    return _fn


def train(train_data, eval_data, epochs=3, batch_size=16):
    tokenizer, model, optimizer = build()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to(device)
    train_loader = DataLoader(train_data, batch_size=batch_size, shuffle=True, collate_fn=collate(tokenizer))
    eval_loader = DataLoader(eval_data, batch_size=batch_size, collate_fn=collate(tokenizer))
    for epoch in range(epochs):
        model.train()
        for batch in train_loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            optimizer.zero_grad()
            loss = model(**batch).loss
            loss.backward()
            optimizer.step()
        model.eval()
        eval_loss, n = 0.0, 0
        with torch.no_grad():
            for batch in eval_loader:
                batch = {k: v.to(device) for k, v in batch.items()}
                eval_loss += model(**batch).loss.item()
                n += 1
        print(f"epoch {epoch}: eval loss {eval_loss / max(n, 1):.4f}")
    return model
