"""Sequence tagger trainer: epoch loop with an evaluation pass over the dev sentences."""
import torch


class TaggerTrainer:
    def __init__(self, model, corpus, learning_rate=0.1):
        self.model = model
        self.corpus = corpus
        self.optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

    def train(self, max_epochs=50, mini_batch_size=32):
        train_data = self.corpus.train
        for epoch in range(max_epochs):
            self.model.train()
            current_loss = 0.0
            batches = [train_data[x:x + mini_batch_size] for x in range(0, len(train_data), mini_batch_size)]
            for batch in batches:
                self.optimizer.zero_grad()
                scores = self.model.forward(batch)
                loss = self.model.calculate_loss(scores, batch)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
                self.optimizer.step()
                current_loss += loss.item()
            dev_loss, dev_acc = self.evaluate(self.corpus.dev, mini_batch_size)
            print(f"epoch {epoch}: train {current_loss / len(batches):.4f} dev {dev_loss:.4f} acc {dev_acc:.4f}")

    def evaluate(self, sentences, mini_batch_size=32):
        self.model.eval()
        eval_loss = 0.0
        correct, total = 0, 0
        batches = [sentences[x:x + mini_batch_size] for x in range(0, len(sentences), mini_batch_size)]
        for batch in batches:
            scores = self.model.forward(batch)  # expect: validation-in-train-mode
            labels = self.model.obtain_labels(scores)
            loss = self.model.calculate_loss(scores, batch)
            eval_loss += loss.item()
            for sentence, predicted in zip(batch, labels):
                gold = sentence.tags
                correct += sum(int(p == g) for p, g in zip(predicted, gold))
                total += len(gold)
        return eval_loss / max(len(batches), 1), correct / max(total, 1)
