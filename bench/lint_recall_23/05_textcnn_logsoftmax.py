"""Kim-style CNN for sentence classification."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

VOCAB, EMB, CLASSES = 5000, 100, 2


class CNNClassifier(nn.Module):
    def __init__(self, vocab_size, embedding_dim, output_size, kernel_dim=100, kernel_sizes=(3, 4, 5)):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.convs = nn.ModuleList([nn.Conv2d(1, kernel_dim, (k, embedding_dim)) for k in kernel_sizes])
        self.dropout = nn.Dropout(0.5)
        self.fc = nn.Linear(len(kernel_sizes) * kernel_dim, output_size)

    def forward(self, inputs):
        x = self.embedding(inputs).unsqueeze(1)
        x = [F.relu(conv(x)).squeeze(3) for conv in self.convs]
        x = [F.max_pool1d(i, i.size(2)).squeeze(2) for i in x]
        x = self.dropout(torch.cat(x, 1))
        return F.log_softmax(self.fc(x), dim=1)


def get_batch(batch_size=50, length=40):
    return torch.randint(0, VOCAB, (batch_size, length)), torch.randint(0, CLASSES, (batch_size,))


model = CNNClassifier(VOCAB, EMB, CLASSES)
loss_function = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

for epoch in range(5):
    model.train()
    losses = []
    for _ in range(100):
        inputs, targets = get_batch()
        model.zero_grad()
        preds = model(inputs)
        loss = loss_function(preds, targets)  # expect: softmax-before-cross-entropy
        losses.append(loss.item())
        loss.backward()
        optimizer.step()
    print(f"[{epoch}] mean loss : {sum(losses) / len(losses):.4f}")

model.eval()
with torch.no_grad():
    inputs, targets = get_batch(200)
    accuracy = (model(inputs).argmax(dim=1) == targets).float().mean().item()
print("test accuracy", accuracy)
