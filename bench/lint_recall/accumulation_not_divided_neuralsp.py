# Source: https://github.com/hirofumi0810/neural_sp/issues/168
# Pitfall: with gradient accumulation the mean loss of each micro-batch is backpropagated
# as is, so the update is accum_grad_n_steps times too large.
# Reproduced in our own words, not the original code.
def train(model, optimizer, train_set, accum_grad_n_steps=4):
    accum_n_steps = 0
    for batch in train_set:
        loss, observation = model(batch)
        loss.backward()  # expect: accumulation-not-averaged
        accum_n_steps += 1
        if accum_n_steps >= accum_grad_n_steps:
            optimizer.step()
            optimizer.zero_grad()
            accum_n_steps = 0
