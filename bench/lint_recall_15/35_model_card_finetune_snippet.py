"""Fine-tuning snippet from a model card: sequence classification with an explicit loss."""
import torch
import torch.nn.functional as F
from transformers import AutoModelForSequenceClassification, AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=3)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)

texts = ["the movie was great", "terrible plot", "it was fine I guess"]
labels = torch.tensor([2, 0, 1])


def accuracy(logits, targets):
    return (logits.argmax(dim=-1) == targets).float().mean().item()


@torch.no_grad()
def predict(sentences):
    model.eval()
    enc = tokenizer(sentences, padding=True, truncation=True, return_tensors="pt")
    probs = model(**enc).logits.softmax(dim=-1)
    model.train()
    return probs


model.train()
for epoch in range(3):
    batch = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
    logits = model(**batch).logits
    loss = F.cross_entropy(labels, logits)  # expect: loss-arguments-swapped
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item(), "train acc", accuracy(logits.detach(), labels))

print(predict(["what a wonderful film", "I want my money back"]))
