"""WaveNet vocoder: periodic evaluation that generates a waveform sample."""
import numpy as np
import torch


def eval_model(global_step, writer, device, model, c, g, length, hparams):
    """Generate audio from the local conditioning c and log it."""
    model.eval()
    model.make_generation_fast_()

    initial_value = 0.0 if not hparams.mulaw else 127
    initial_input = torch.zeros(1, 1, 1).fill_(initial_value)
    initial_input = initial_input.to(device)
    c = None if c is None else c.to(device)
    g = None if g is None else g.to(device)

    y_hat = model.incremental_forward(  # expect: validation-in-train-mode
        initial_input, c=c, g=g, T=length, softmax=True, quantize=True,
        log_scale_min=hparams.log_scale_min)

    y_hat = y_hat.max(1)[1].view(-1).long().cpu().numpy()
    y_hat = y_hat.astype(np.float32) / hparams.quantize_channels
    writer.add_audio("eval/generated", y_hat, global_step, sample_rate=hparams.sample_rate)
    model.train()
    return y_hat


def train_loop(model, optimizer, loader, writer, device, hparams, eval_batch):
    global_step = 0
    model.train()
    for epoch in range(hparams.epochs):
        for x, y, c in loader:
            x, y, c = x.to(device), y.to(device), c.to(device)
            optimizer.zero_grad()
            y_hat = model(x, c=c)
            loss = torch.nn.functional.cross_entropy(y_hat[:, :, :-1], y[:, 1:])
            loss.backward()
            optimizer.step()
            global_step += 1
            if global_step % hparams.eval_interval == 0:
                eval_model(global_step, writer, device, model, eval_batch, None,
                           hparams.eval_length, hparams)
