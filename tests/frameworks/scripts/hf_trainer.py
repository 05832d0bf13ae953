import sys, torch
from torch import nn
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments
torch.manual_seed(0)  # the model is built before the Trainer seeds: seed it here for a reproducible run

class DS(Dataset):
    def __init__(self):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(512, 8, generator=g); self.y = self.x[:, :1] * 2
        self.x[300, 3] = float("nan")
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return {"x": self.x[i], "labels": self.y[i]}

class M(nn.Module):
    def __init__(self):
        super().__init__(); self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    def forward(self, x, labels=None):
        out = self.net(x)
        return {"loss": nn.functional.mse_loss(out, labels), "logits": out}

accum = int(sys.argv[1]) if len(sys.argv) > 1 else 1
args = TrainingArguments(output_dir=sys.argv[2] if len(sys.argv) > 2 else "hf_out", per_device_train_batch_size=16, num_train_epochs=1, learning_rate=1e-2,
                         gradient_accumulation_steps=accum, logging_steps=5, save_strategy="no", report_to=[],
                         use_cpu=True, seed=0, dataloader_num_workers=0, disable_tqdm=True)
Trainer(model=M(), args=args, train_dataset=DS()).train()
print("done")
