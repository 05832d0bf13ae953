"""Causal-LM fine-tuning loop with accelerate (per-worker training function)."""
import math
import time

import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM, get_linear_schedule_with_warmup


def training_function(config, train_dataloader, eval_dataloader):
    accelerator = Accelerator(gradient_accumulation_steps=config["grad_accum"])
    model = AutoModelForCausalLM.from_pretrained(config["model_name"], torch_dtype=torch.bfloat16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
    num_steps = config["num_epochs"] * len(train_dataloader) // config["grad_accum"]
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, config["warmup"], num_steps)
    model, optimizer, train_dataloader, eval_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, eval_dataloader, lr_scheduler
    )

    for epoch in range(config["num_epochs"]):
        model.train()
        loss_sum = torch.tensor(0.0, device=accelerator.device)
        s_epoch = time.time()
        for step, batch in enumerate(train_dataloader):
            with accelerator.accumulate(model):
                outputs = model(**batch)
                loss = outputs.loss
                loss_sum += loss  # expect: running-loss-keeps-graph
                accelerator.backward(loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
            if step % 50 == 0:
                avg = loss_sum.item() / (step + 1)
                accelerator.print(f"epoch {epoch} step {step}: loss {avg:.4f}")

        model.eval()
        eval_losses = []
        with torch.no_grad():
            for batch in eval_dataloader:
                outputs = model(**batch)
                eval_losses.append(accelerator.gather(outputs.loss[None]))
        eval_loss = torch.cat(eval_losses).mean().item()
        accelerator.print(f"epoch {epoch}: ppl {math.exp(eval_loss):.2f} ({time.time() - s_epoch:.0f}s)")
