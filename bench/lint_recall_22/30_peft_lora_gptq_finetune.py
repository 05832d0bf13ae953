"""LoRA instruction tuning of a GPTQ-quantized causal LM."""
from functools import partial

import torch
from peft import LoraConfig, get_peft_model
from torch.utils.data import DataLoader
from tqdm import tqdm
from transformers import get_linear_schedule_with_warmup


def collate_fn(batch, tokenizer, max_len=512):
    texts = [ex["prompt"] + ex["output"] for ex in batch]
    enc = tokenizer(texts, padding=True, truncation=True, max_length=max_len, return_tensors="pt")
    enc["labels"] = enc["input_ids"].masked_fill(enc["attention_mask"] == 0, -100)
    return enc


def finetune(model, tokenizer, train_ds, eval_ds, num_epochs=1, lr=3e-5, device="cuda"):
    peft_config = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05, task_type="CAUSAL_LM")
    model = get_peft_model(model, peft_config)
    model.print_trainable_parameters()

    train_loader = DataLoader(train_ds, batch_size=1, shuffle=True,
                              collate_fn=partial(collate_fn, tokenizer=tokenizer))
    eval_loader = DataLoader(eval_ds, batch_size=1, shuffle=False,
                             collate_fn=partial(collate_fn, tokenizer=tokenizer))
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0,
                                                   num_training_steps=len(train_loader) * num_epochs)

    with torch.autocast("cuda", dtype=torch.bfloat16):
        for epoch in range(num_epochs):
            model.train()
            total_loss = 0.0
            progress = tqdm(train_loader)
            for batch in progress:
                batch = {k: v.to(device) for k, v in batch.items()}
                loss = model(**batch).loss
                total_loss += loss.detach().float()
                loss.backward()  # expect: backward-inside-autocast
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
                progress.set_postfix(loss=loss.item())

            model.eval()
            eval_loss = 0.0
            for batch in tqdm(eval_loader):
                batch = {k: v.to(device) for k, v in batch.items()}
                with torch.no_grad():
                    eval_loss += model(**batch).loss.detach().float()
            n_train, n_eval = max(len(train_loader), 1), max(len(eval_loader), 1)
            print(f"epoch {epoch}: train ppl {torch.exp(total_loss / n_train):.3f} "
                  f"eval ppl {torch.exp(eval_loss / n_eval):.3f}")
    return model
