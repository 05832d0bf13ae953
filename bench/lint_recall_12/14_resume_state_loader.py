import os
import torch

MODEL_NAME = "pytorch_model"
OPTIMIZER_NAME = "optimizer"


def save_state(model, optimizer, scheduler, output_dir, step):
    os.makedirs(output_dir, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(output_dir, f"{MODEL_NAME}.bin"))
    torch.save(optimizer.state_dict(), os.path.join(output_dir, f"{OPTIMIZER_NAME}.bin"))
    torch.save({"scheduler": scheduler.state_dict(), "step": step}, os.path.join(output_dir, "extra.pt"))


def load_state(model, optimizer, scheduler, input_dir, map_location="cpu"):
    input_model_file = os.path.join(input_dir, f"{MODEL_NAME}.bin")
    state_dict = torch.load(input_model_file, map_location=map_location)  # expect: torch-load-unsafe
    model.load_state_dict(state_dict)
    optim_state = torch.load(os.path.join(input_dir, f"{OPTIMIZER_NAME}.bin"), map_location=map_location, weights_only=True)
    optimizer.load_state_dict(optim_state)
    extra = torch.load(os.path.join(input_dir, "extra.pt"), map_location=map_location, weights_only=True)
    scheduler.load_state_dict(extra["scheduler"])
    return extra["step"]


def train(model, optimizer, scheduler, loader, criterion, resume_dir=None, max_steps=1000, ckpt_dir="ckpt"):
    step = load_state(model, optimizer, scheduler, resume_dir) if resume_dir else 0
    model.train()
    while step < max_steps:
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            scheduler.step()
            step += 1
            if step % 200 == 0:
                save_state(model, optimizer, scheduler, ckpt_dir, step)
            if step >= max_steps:
                break
