# Source: https://github.com/microsoft/LMOps/issues/38
# Pitfall: the token-level distillation loss is averaged by dividing by the count of non-ignored labels;
#   a batch whose labels are all -100 (truncated prompts) divides by zero and the loss turns NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def forward_kl_token_loss(student_logits, teacher_logits, labels, ignore_index=-100):
    teacher_p = F.softmax(teacher_logits, dim=-1, dtype=torch.float32)
    student_logp = F.log_softmax(student_logits, dim=-1, dtype=torch.float32)
    inf_mask = torch.isinf(student_logits)
    per_vocab = torch.masked_fill(teacher_p * student_logp, inf_mask, 0.0)
    per_token = per_vocab.sum(dim=-1).view(-1)
    keep = (labels != ignore_index).view(-1).float()
    return -(per_token * keep).sum() / keep.sum()  # expect: unguarded-zero


def distill_step(student, teacher, batch, optimizer, alpha=0.5):
    student.train()
    teacher.eval()
    with torch.no_grad():
        t_logits = teacher(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
    out = student(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"])
    kd = forward_kl_token_loss(out.logits, t_logits, batch["labels"])
    loss = (1 - alpha) * out.loss + alpha * kd
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(student.parameters(), 1.0)
    optimizer.step()
    return {"lm": out.loss.item(), "kd": kd.item()}
