"""BERT document classification trainer with a per-epoch dev evaluation."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler
from tqdm import tqdm, trange


class BertEvaluator:
    def __init__(self, model, dataset, device, batch_size=32):
        self.model = model
        self.loader = DataLoader(dataset, batch_size=batch_size, shuffle=False)
        self.device = device

    def get_scores(self):
        self.model.eval()  # expect: train-mode-not-restored
        correct, total, total_loss = 0, 0, 0.0
        with torch.no_grad():
            for input_ids, input_mask, segment_ids, label_ids in self.loader:
                batch = [t.to(self.device) for t in (input_ids, input_mask, segment_ids, label_ids)]
                logits = self.model(batch[0], attention_mask=batch[1], token_type_ids=batch[2])[0]
                total_loss += F.cross_entropy(logits, batch[3]).item()
                correct += (logits.argmax(dim=1) == batch[3]).sum().item()
                total += batch[3].size(0)
        return correct / total, total_loss / len(self.loader)


class BertTrainer:
    def __init__(self, model, optimizer, scheduler, train_data, dev_data, args):
        self.model, self.optimizer, self.scheduler = model, optimizer, scheduler
        self.train_data, self.dev_data, self.args = train_data, dev_data, args

    def train_epoch(self, train_dataloader):
        for step, batch in enumerate(tqdm(train_dataloader, desc="Training")):
            input_ids, input_mask, segment_ids, label_ids = (t.to(self.args.device) for t in batch)
            logits = self.model(input_ids, attention_mask=input_mask, token_type_ids=segment_ids)[0]
            loss = F.cross_entropy(logits, label_ids)
            loss.backward()
            self.optimizer.step()
            self.scheduler.step()
            self.optimizer.zero_grad()

    def train(self):
        sampler = RandomSampler(self.train_data)
        train_dataloader = DataLoader(self.train_data, sampler=sampler, batch_size=self.args.batch_size)
        self.model.train()
        best_acc = 0.0
        for epoch in trange(int(self.args.epochs), desc="Epoch"):
            self.train_epoch(train_dataloader)
            dev_acc, dev_loss = BertEvaluator(self.model, self.dev_data, self.args.device).get_scores()
            if dev_acc > best_acc:
                best_acc = dev_acc
                torch.save(self.model.state_dict(), self.args.save_path)
