# Source: https://github.com/ThilinaRajapakse/simpletransformers/commit/50c0c8e4e05eb77124c213cc1c6474f0315098b8
# Pitfall: with evaluate-during-training on, the periodic evaluation switches the model to eval() and the
#   training loop never calls model.train() again, so the rest of training runs with dropout disabled.
# Reproduced in our own words, not the original code.
import torch
from torch.utils.data import DataLoader


class SequenceClassifierRunner:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device)

    def eval_model(self, eval_dataset):
        self.model.eval()
        loader = DataLoader(eval_dataset, batch_size=self.args["eval_batch_size"])
        total, correct, loss_sum = 0, 0, 0.0
        with torch.no_grad():
            for batch in loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                out = self.model(**batch)
                loss_sum += out.loss.item()
                correct += (out.logits.argmax(-1) == batch["labels"]).sum().item()
                total += batch["labels"].numel()
        return {"eval_loss": loss_sum / max(len(loader), 1), "acc": correct / max(total, 1)}

    def train(self, train_dataset, eval_dataset):
        loader = DataLoader(train_dataset, batch_size=self.args["train_batch_size"], shuffle=True)
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.args["learning_rate"])
        global_step = 0
        history = []
        self.model.train()
        for epoch in range(self.args["num_train_epochs"]):
            for batch in loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                loss = self.model(**batch).loss
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args["max_grad_norm"])
                optimizer.step()
                optimizer.zero_grad()
                global_step += 1
                if self.args["evaluate_during_training"] and global_step % self.args["evaluate_every"] == 0:
                    results = self.eval_model(eval_dataset)  # expect: train-mode-not-restored
                    history.append((global_step, results))
        return global_step, history
