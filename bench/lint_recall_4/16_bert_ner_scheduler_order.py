# Source: https://github.com/lonePatient/BERT-NER-Pytorch/issues/33
# Pitfall: in the span-NER training loop the linear-warmup scheduler is stepped before the
#   optimizer on every accumulation boundary, shifting the warmup schedule by one step.
# Reproduced in our own words, not the original code.
import torch
from transformers import AdamW, get_linear_schedule_with_warmup


def train(args, model, train_dataloader):
    t_total = len(train_dataloader) // args.gradient_accumulation_steps * args.num_train_epochs
    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": args.weight_decay},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = AdamW(grouped, lr=args.learning_rate, eps=args.adam_epsilon)
    scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=args.warmup_steps,
                                                num_training_steps=t_total)
    global_step = 0
    model.zero_grad()
    for _ in range(int(args.num_train_epochs)):
        for step, batch in enumerate(train_dataloader):
            model.train()
            batch = tuple(t.to(args.device) for t in batch)
            inputs = {"input_ids": batch[0], "attention_mask": batch[1],
                      "start_positions": batch[3], "end_positions": batch[4]}
            outputs = model(**inputs)
            loss = outputs[0]
            if args.gradient_accumulation_steps > 1:
                loss = loss / args.gradient_accumulation_steps
            loss.backward()
            if (step + 1) % args.gradient_accumulation_steps == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                scheduler.step()  # expect: scheduler-before-optimizer
                optimizer.step()
                model.zero_grad()
                global_step += 1
    return global_step
