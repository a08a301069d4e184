import { z } from 'zod';
import { endpoint, json, readJson } from '@/lib/server/infra/http';
import { message } from '@/lib/domain/messages';

const bodySchema = z.object({
  email: z
    .string({ error: message('email-missing') })
    .trim()
    .min(1, message('email-missing'))
    .max(254, message('invalid-email'))
    .pipe(z.email({ error: message('invalid-email') })),
});

/**
 * POST {email}: a newsletter opt-in from the home page box (double opt-in: a pending subscription
 * and the "Confirm your subscription" mail; src/lib/server/newsletter/newsletter.ts). JSON in, JSON out for the island; a plain form post (the box before
 * its script has loaded) is answered with a redirect back to the home page.
 */
export const POST = endpoint(async ({ request, locals, redirect }) => {
  const isForm = (request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded');
  if (isForm) {
    const form = await request.formData();
    const parsed = bodySchema.safeParse({ email: form.get('email') ?? '' });
    if (!parsed.success) return redirect('/?newsletter=invalid#newsletter', 303);
    const { created } = await locals.services.newsletter.subscribe(parsed.data.email, { source: 'home', site: locals.publicOrigin });
    return redirect(`/?newsletter=${created ? 'subscribed' : 'already'}#newsletter`, 303);
  }
  const { email } = await readJson(request, bodySchema);
  const { created } = await locals.services.newsletter.subscribe(email, { source: 'home', site: locals.publicOrigin });
  return json(
    { status: true, data: { email: email.toLowerCase(), alreadySubscribed: !created }, message: message(created ? 'newsletter-subscribed' : 'newsletter-already') },
    { status: created ? 201 : 200 },
  );
});
