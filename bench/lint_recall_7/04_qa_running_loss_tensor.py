# Source: https://github.com/pai4451/ML2021/issues/2
# Pitfall: the extractive-QA fine-tuning loop adds the model output's loss tensor to a running
#   sum, so every step's autograd graph stays alive and host/GPU memory grows until it runs out.
# Reproduced in our own words, not the original code.
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
from transformers import AutoModelForQuestionAnswering, get_linear_schedule_with_warmup


def build_loader(n=256, seq_len=192):
    ids = torch.randint(100, 20000, (n, seq_len))
    types = torch.zeros_like(ids)
    mask = torch.ones_like(ids)
    starts = torch.randint(0, seq_len // 2, (n,))
    ends = starts + torch.randint(0, 10, (n,))
    return DataLoader(TensorDataset(ids, types, mask, starts, ends), batch_size=16, shuffle=True)


def main(num_epochs=1, log_every=50):
    accelerator = Accelerator()
    model = AutoModelForQuestionAnswering.from_pretrained("bert-base-chinese")
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    loader = build_loader()
    total = num_epochs * len(loader)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.1 * total), total)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)

    model.train()
    step = 1
    for epoch in range(num_epochs):
        train_loss = 0.0
        train_acc = 0.0
        for ids, types, mask, starts, ends in loader:
            output = model(input_ids=ids, token_type_ids=types, attention_mask=mask,
                           start_positions=starts, end_positions=ends)
            start_pred = torch.argmax(output.start_logits, dim=1)
            end_pred = torch.argmax(output.end_logits, dim=1)
            train_acc += ((start_pred == starts) & (end_pred == ends)).float().mean().item()
            train_loss += output.loss  # expect: running-loss-keeps-graph

            accelerator.backward(output.loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step += 1

            if step % log_every == 0:
                print(f"epoch {epoch + 1} step {step}: loss {train_loss / log_every:.3f}, "
                      f"acc {train_acc / log_every:.3f}")
                train_loss = 0.0
                train_acc = 0.0


if __name__ == "__main__":
    main()
