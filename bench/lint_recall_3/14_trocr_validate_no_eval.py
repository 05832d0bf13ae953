# Source: https://github.com/rsommerfeld/trocr/issues/9
# Pitfall: The validate() routine used between training epochs runs the OCR model without switching it
# to eval mode, so dropout is active while the validation accuracy is measured.
# Reproduced in our own words, not the original code.
import torch


def validate(model, processor, val_loader, device):
    correct, seen = 0, 0
    with torch.no_grad():
        for pixel_values, texts in val_loader:
            pixel_values = pixel_values.to(device)
            generated = model.generate(pixel_values)  # expect: validation-in-train-mode
            decoded = processor.batch_decode(generated, skip_special_tokens=True)
            for guess, truth in zip(decoded, texts):
                correct += int(guess.strip() == truth.strip())
                seen += 1
    return correct / max(seen, 1)


def train(model, processor, train_loader, val_loader, optimizer, epochs, device):
    model.to(device)
    for epoch in range(epochs):
        model.train()
        for batch in train_loader:
            optimizer.zero_grad()
            out = model(pixel_values=batch["pixel_values"].to(device), labels=batch["labels"].to(device))
            out.loss.backward()
            optimizer.step()
        print(epoch, validate(model, processor, val_loader, device))
