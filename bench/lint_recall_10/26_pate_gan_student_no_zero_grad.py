# Source: https://github.com/opendp/smartnoise-sdk/issues/280
# Pitfall: in the PATE-style GAN the student discriminator's optimizer never clears its gradients, so every
#   step applies the sum of all past student gradients (the teachers and generator do call zero_grad).
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def noisy_teacher_votes(teachers, fake, noise_scale):
    with torch.no_grad():
        votes = torch.stack([(t(fake) > 0).float().squeeze(-1) for t in teachers]).sum(0)
        votes = votes + torch.randn_like(votes) * noise_scale
    return (votes > len(teachers) / 2).float()


def train_round(generator, teachers, student, opt_teachers, opt_student, opt_gen,
                real_parts, z_dim, batch_size, noise_scale, device):
    # teachers: each sees only its own partition of the real data
    for teacher, opt_t, part in zip(teachers, opt_teachers, real_parts):
        real = part[torch.randint(len(part), (batch_size,))].to(device)
        fake = generator(torch.randn(batch_size, z_dim, device=device)).detach()
        opt_t.zero_grad()
        loss_t = F.binary_cross_entropy_with_logits(teacher(real), torch.ones(batch_size, 1, device=device)) \
            + F.binary_cross_entropy_with_logits(teacher(fake), torch.zeros(batch_size, 1, device=device))
        loss_t.backward()
        opt_t.step()

    # student: learns from the teachers' noisy aggregated labels on generated rows
    fake = generator(torch.randn(batch_size, z_dim, device=device)).detach()
    labels = noisy_teacher_votes(teachers, fake, noise_scale)
    loss_s = F.binary_cross_entropy_with_logits(student(fake).squeeze(-1), labels)
    loss_s.backward()  # expect: gradients-never-cleared
    opt_student.step()

    # generator: fool the student
    opt_gen.zero_grad()
    gen_rows = generator(torch.randn(batch_size, z_dim, device=device))
    loss_g = F.binary_cross_entropy_with_logits(student(gen_rows), torch.ones(batch_size, 1, device=device))
    loss_g.backward()
    opt_gen.step()
    return loss_t.item(), loss_s.item(), loss_g.item()
