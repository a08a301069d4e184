import { z } from 'zod';
import { endpoint, json, readJson } from '@/lib/server/infra/http';
import { RateLimited } from '@/lib/domain/errors';
import { message } from '@/lib/domain/messages';
import { clientIp } from '@/lib/server/accounts/auth';

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
 * and the "Confirm your subscription" mail; src/lib/server/newsletter/newsletter.ts). Anyone may
 * type any address here, so the answer is the same whether or not the address is subscribed (the
 * mail says which): 202 with the address and the thank-you. JSON in, JSON out for the island; a
 * plain form post (the box before its script has loaded) is answered with a redirect back to the
 * home page. Too many subscribes from one client address: 429 (the form: the box's notice).
 */
export const POST = endpoint(async (ctx) => {
  const { request, locals, redirect } = ctx;
  const isForm = (request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded');
  if (isForm) {
    const form = await request.formData();
    const parsed = bodySchema.safeParse({ email: form.get('email') ?? '' });
    if (!parsed.success) return redirect('/?newsletter=invalid#newsletter', 303);
    try {
      await locals.services.newsletter.subscribe(parsed.data.email, { source: 'home', site: locals.publicOrigin, clientIp: clientIp(ctx) });
    } catch (err) {
      if (err instanceof RateLimited) return redirect('/?newsletter=limited#newsletter', 303);
      throw err;
    }
    return redirect('/?newsletter=subscribed#newsletter', 303);
  }
  const { email } = await readJson(request, bodySchema);
  await locals.services.newsletter.subscribe(email, { source: 'home', site: locals.publicOrigin, clientIp: clientIp(ctx) });
  return json({ status: true, data: { email: email.toLowerCase() }, message: message('newsletter-subscribed') }, { status: 202 });
});
