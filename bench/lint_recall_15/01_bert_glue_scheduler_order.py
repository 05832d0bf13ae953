"""Fine-tune a BERT-style encoder on a sentence-pair task with a linear warmup schedule."""
import torch
from torch.utils.data import DataLoader, RandomSampler
from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup


def train(args, train_dataset, device):
    model = AutoModelForSequenceClassification.from_pretrained(args.model_name, num_labels=2)
    model.to(device)
    sampler = RandomSampler(train_dataset)
    loader = DataLoader(train_dataset, sampler=sampler, batch_size=args.train_batch_size)

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": args.weight_decay},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(grouped, lr=args.learning_rate, eps=1e-8)
    t_total = len(loader) * args.num_train_epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, args.warmup_steps, t_total)

    global_step, tr_loss = 0, 0.0
    model.train()
    for epoch in range(args.num_train_epochs):
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            tr_loss += loss.item()
            scheduler.step()  # expect: scheduler-before-optimizer
            optimizer.step()
            model.zero_grad()
            global_step += 1
    return global_step, tr_loss / max(global_step, 1)
