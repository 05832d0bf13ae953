"""HF-style distillation trainer: student BERT learns from a frozen teacher's soft labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyEncoder(nn.Module):
    def __init__(self, vocab=3000, dim=64, n_labels=2, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, batch_first=True), layers)
        self.cls = nn.Linear(dim, n_labels)

    def forward(self, input_ids):
        return self.cls(self.enc(self.emb(input_ids))[:, 0])


class DistillationTrainer:
    def __init__(self, student, teacher, temperature=2.0, alpha=0.5, lr=5e-5):
        self.student = student
        self.teacher = teacher.eval()
        self.temperature = temperature
        self.alpha = alpha
        self.optimizer = torch.optim.AdamW(student.parameters(), lr=lr)

    def compute_loss(self, input_ids, labels):
        student_logits = self.student(input_ids)
        with torch.no_grad():
            teacher_logits = self.teacher(input_ids)
        t = self.temperature
        kd = nn.KLDivLoss()(F.log_softmax(student_logits / t, dim=-1), F.softmax(teacher_logits / t, dim=-1))  # expect: kl-div-mean-reduction
        ce = F.cross_entropy(student_logits, labels)
        return self.alpha * kd * t * t + (1 - self.alpha) * ce

    def train(self, batches, epochs=1):
        for _ in range(epochs):
            self.student.train()
            for input_ids, labels in batches:
                self.optimizer.zero_grad()
                loss = self.compute_loss(input_ids, labels)
                loss.backward()
                self.optimizer.step()
                print({"loss": round(loss.item(), 4)})


if __name__ == "__main__":
    data = [(torch.randint(0, 3000, (8, 32)), torch.randint(0, 2, (8,))) for _ in range(2)]
    DistillationTrainer(TinyEncoder(layers=1), TinyEncoder(layers=4)).train(data)
