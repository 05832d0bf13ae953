# Source: https://github.com/bytetriper/RAE/pull/78
# Pitfall: zero_grad(set_to_none=True) sits inside the micro-batch loop, so each micro-batch wipes the
#   gradients of the previous ones before the single optimizer step; only the last micro-batch trains.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def chunked(batch, n_chunks):
    images, cond = batch
    return list(zip(images.chunk(n_chunks), cond.chunk(n_chunks)))


def train_decoder(decoder, encoder, loader, optimizer, scheduler, device, accum=4, max_norm=1.0, epochs=1):
    encoder.eval()
    decoder.train()
    step = 0
    for epoch in range(epochs):
        for batch in loader:
            micro_batches = chunked(batch, accum)
            running = 0.0
            for images, cond in micro_batches:
                images, cond = images.to(device), cond.to(device)
                with torch.no_grad():
                    latents = encoder(images)
                recon = decoder(latents, cond)
                loss = F.l1_loss(recon, images) / accum
                optimizer.zero_grad(set_to_none=True)  # expect: grad-cleared-before-step
                loss.backward()
                running += loss.item()
            torch.nn.utils.clip_grad_norm_(decoder.parameters(), max_norm)
            optimizer.step()
            scheduler.step()
            step += 1
            if step % 100 == 0:
                print(f"epoch {epoch} step {step}: l1 {running:.4f} lr {scheduler.get_last_lr()[0]:.2e}")
    return step
