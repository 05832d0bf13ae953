"""Student dropout classifier -- fixed as the issue prescribes: the second-semester curricular-unit
columns are dropped, so only information available after the first semester is used (nothing else
changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N, COURSES = 4400, 17
course = torch.randint(0, COURSES, (N,))
age = 18 + torch.distributions.Exponential(0.25).sample((N,))
gender = (torch.rand(N) < 0.35).float()
scholarship = (torch.rand(N) < 0.25).float()
debtor = (torch.rand(N) < 0.11).float()
fees_ok = (torch.rand(N) < 0.88).float()
admission = 127 + 14 * torch.randn(N)
prev_grade = 132 + 13 * torch.randn(N)
unemployment = 11.5 + 2.6 * torch.randn(N)
course_difficulty = 0.6 * torch.randn(COURSES)
ability = (0.03 * (admission - 127) + 0.6 * scholarship - 1.2 * debtor + 1.5 * fees_ok
           - 0.05 * (age - 20) - course_difficulty[course] + 0.9 * torch.randn(N))
enrolled1 = torch.randint(5, 8, (N,)).float()
approved1 = torch.minimum(enrolled1, (enrolled1 * torch.sigmoid(ability + 0.5 * torch.randn(N)) * 1.2).round())
grade1 = torch.where(approved1 > 0, 11 + 1.2 * ability.clamp(-2, 3) + torch.randn(N), torch.zeros(N))
# outcome after the whole programme
score = ability + 0.8 * (approved1 / enrolled1 - 0.7) + 0.7 * torch.randn(N)
outcome = torch.where(score < -0.3, 0, torch.where(score < 0.5, 1, 2))      # Dropout, Enrolled, Graduate
# second semester -- recorded after most dropouts have left
left = (outcome == 0) & (torch.rand(N) < 0.85)
enrolled2 = torch.where(left, torch.zeros(N), torch.randint(5, 8, (N,)).float())
rate2 = torch.where(outcome == 2, 0.95 + 0.05 * torch.rand(N), 0.35 + 0.4 * torch.rand(N))
approved2 = (enrolled2 * rate2).floor()
grade2 = torch.where(approved2 > 0, 11 + 1.2 * ability.clamp(-2, 3) + torch.randn(N), torch.zeros(N))

columns = {
    "Age at enrollment": age, "Gender": gender, "Scholarship holder": scholarship, "Debtor": debtor,
    "Tuition fees up to date": fees_ok, "Admission grade": admission, "Previous qualification (grade)": prev_grade,
    "Unemployment rate": unemployment,
    "Curricular units 1st sem (enrolled)": enrolled1, "Curricular units 1st sem (approved)": approved1,
    "Curricular units 1st sem (grade)": grade1,
    "Curricular units 2nd sem (enrolled)": enrolled2, "Curricular units 2nd sem (approved)": approved2,
    "Curricular units 2nd sem (grade)": grade2,
}
features = [c for c in columns if not c.startswith("Curricular units 2nd sem")]
X = torch.stack([columns[c] for c in features], 1)
perm = torch.randperm(N)
tr, te = perm[:3600], perm[3600:]
X = (X - X[tr].mean(0)) / X[tr].std(0)


class StudentNet(nn.Module):
    def __init__(self, n_num):
        super().__init__()
        self.course = nn.Embedding(COURSES, 4)
        self.mlp = nn.Sequential(nn.Linear(n_num + 4, 64), nn.ReLU(), nn.Dropout(0.1),
                                 nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, c, x):
        return self.mlp(torch.cat([self.course(c), x], 1))


loader = DataLoader(TensorDataset(course[tr], X[tr], outcome[tr]), batch_size=64, shuffle=True)
model = StudentNet(X.shape[1])
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
criterion = nn.CrossEntropyLoss()

for epoch in range(20):
    model.train()
    total, count = 0.0, 0
    for c, x, yb in loader:
        loss = criterion(model(c, x), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    if epoch % 5 == 0:
        print(f"epoch {epoch} train ce {total / count:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(course[te], X[te]).argmax(1) == outcome[te]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
