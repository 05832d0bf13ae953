# Source: https://github.com/huggingface/transformers/issues/1017
# Pitfall: The migration example steps the warmup scheduler before the optimizer in every iteration;
# since PyTorch 1.1 this skips the first learning-rate value of the schedule.
# Reproduced in our own words, not the original code.
import torch
from transformers import AdamW, get_linear_schedule_with_warmup


def finetune(model, train_batches, lr=3e-5, warmup=100, max_grad_norm=1.0):
    total_steps = len(train_batches)
    optim = AdamW(model.parameters(), lr=lr, correct_bias=False)
    sched = get_linear_schedule_with_warmup(optim, num_warmup_steps=warmup, num_training_steps=total_steps)
    model.train()
    for batch in train_batches:
        loss = model(**batch)[0]
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
        sched.step()  # expect: scheduler-before-optimizer
        optim.step()
        optim.zero_grad()
    return model
