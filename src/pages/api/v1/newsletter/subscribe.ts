import { z } from 'zod';
import { endpoint, json, readJson } from '../../../../lib/server/http';

export const NEWSLETTER_SUBSCRIBED = 'Thank you for subscribing! Watch your inbox for your 20% off.';
export const NEWSLETTER_ALREADY = 'You are already subscribed to our newsletter.';

const bodySchema = z.object({
  email: z
    .string({ error: 'Please enter your email address' })
    .trim()
    .min(1, 'Please enter your email address')
    .max(254, 'Please enter a valid email address')
    .pipe(z.email({ error: 'Please enter a valid email address' })),
});

/**
 * POST {email}. JSON in, JSON out for the island; a plain form post (the box before
 * its script has loaded) is answered with a redirect back to the home page.
 */
export const POST = endpoint(async ({ request, locals, redirect }) => {
  const isForm = (request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded');
  if (isForm) {
    const form = await request.formData();
    const parsed = bodySchema.safeParse({ email: form.get('email') ?? '' });
    if (!parsed.success) return redirect('/?newsletter=invalid#newsletter', 303);
    const { created } = await locals.services.newsletter.subscribe(parsed.data.email);
    return redirect(`/?newsletter=${created ? 'subscribed' : 'already'}#newsletter`, 303);
  }
  const { email } = await readJson(request, bodySchema);
  const { created } = await locals.services.newsletter.subscribe(email);
  return json(
    { status: true, data: { email: email.toLowerCase(), alreadySubscribed: !created }, message: created ? NEWSLETTER_SUBSCRIBED : NEWSLETTER_ALREADY },
    { status: created ? 201 : 200 },
  );
});
