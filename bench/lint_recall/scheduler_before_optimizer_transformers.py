# Source: https://github.com/ThilinaRajapakse/pytorch-transformers-classification/issues/21
# Pitfall: scheduler.step() comes before optimizer.step() in the loop (PyTorch >= 1.1 warns
# and the first value of the schedule is skipped).
# Reproduced in our own words, not the original code.
import torch


def train(model, train_dataloader, optimizer, scheduler, args):
    model.train()
    for step, batch in enumerate(train_dataloader):
        outputs = model(**batch)
        loss = outputs[0] / args.gradient_accumulation_steps
        loss.backward()
        if (step + 1) % args.gradient_accumulation_steps == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            scheduler.step()  # expect: scheduler-before-optimizer
            optimizer.step()
            model.zero_grad()
