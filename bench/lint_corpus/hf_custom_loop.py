"""Style: Hugging Face model with a hand-written loop (clean)."""
import torch
from torch.utils.data import DataLoader
from tqdm.auto import tqdm
from transformers import AutoModelForSequenceClassification, get_scheduler


def run(train_ds, eval_ds, epochs=3, accum=8):
    device = torch.device("cuda")
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2).to(device)
    train_dl = DataLoader(train_ds, shuffle=True, batch_size=8, num_workers=4, pin_memory=True)
    eval_dl = DataLoader(eval_ds, batch_size=32, num_workers=4, pin_memory=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    sched = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=0, num_training_steps=epochs * len(train_dl))
    scaler = torch.amp.GradScaler("cuda")
    for epoch in range(epochs):
        model.train()
        for step, batch in enumerate(tqdm(train_dl)):
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            with torch.autocast("cuda", dtype=torch.float16):
                loss = model(**batch).loss / accum
            scaler.scale(loss).backward()
            if (step + 1) % accum == 0 or step + 1 == len(train_dl):
                scaler.step(optimizer)
                scaler.update()
                sched.step()
                optimizer.zero_grad(set_to_none=True)
        model.eval()
        correct = 0
        for batch in eval_dl:
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.no_grad():
                logits = model(**batch).logits
            correct += (logits.argmax(-1) == batch["labels"]).sum().item()
        print(f"epoch {epoch}: accuracy {correct / len(eval_ds):.3f}")
