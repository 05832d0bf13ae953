"""Logit distillation from a frozen teacher into a student LM, with gradient accumulation."""
import torch
import torch.nn.functional as F


def distillation_loss(student_logits, teacher_logits, labels, temperature=2.0, alpha=0.5):
    s = F.log_softmax(student_logits / temperature, dim=-1)
    t = F.softmax(teacher_logits / temperature, dim=-1)
    kd = F.kl_div(s.flatten(0, 1), t.flatten(0, 1), reduction="batchmean") * temperature ** 2
    ce = F.cross_entropy(student_logits.flatten(0, 1), labels.flatten(), ignore_index=-100)
    return alpha * kd + (1 - alpha) * ce


def train(student, teacher, loader, epochs=1, lr=2e-5, gradient_accumulation_steps=8, device="cuda"):
    teacher.eval()
    optimizer = torch.optim.AdamW(student.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, 1.0, 0.0, total_iters=epochs * len(loader))
    student.train()
    optimizer.zero_grad()
    for epoch in range(epochs):
        for step, batch in enumerate(loader):
            input_ids = batch["input_ids"].to(device)
            attention_mask = batch["attention_mask"].to(device)
            labels = batch["labels"].to(device)
            with torch.no_grad():
                teacher_logits = teacher(input_ids=input_ids, attention_mask=attention_mask).logits
            student_logits = student(input_ids=input_ids, attention_mask=attention_mask).logits
            loss = distillation_loss(student_logits, teacher_logits, labels)
            loss.backward()  # expect: accumulation-not-averaged
            if (step + 1) % gradient_accumulation_steps == 0:
                torch.nn.utils.clip_grad_norm_(student.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            if step % 100 == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}")
