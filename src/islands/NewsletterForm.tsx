import { useFormSubmit } from '@/lib/client/forms';
import CsrfInput from '@/components/CsrfInput';
import { TOASTS } from '@/lib/domain/toasts';

/**
 * The newsletter box. A real form (POST to the subscribe endpoint) that the island
 * upgrades to an in-place request with toasts. Its one input has a visually hidden label
 * beside the button, so it is not a Field.
 */
export default function NewsletterForm({ csrf }: { csrf?: string | null }) {
  const { busy, onSubmit } = useFormSubmit<{ status?: boolean; message?: string }>({
    failed: TOASTS['newsletter-failed'],
    succeeded: ({ body }) => Boolean(body?.status),
    body: ({ email }) => ({ email }),
    onSuccess: (body, _values, form) => {
      form.reset();
      return { toast: body.message ?? 'Thank you for subscribing!' };
    },
  });

  return (
    <form className="newsletter-form" method="post" action="/api/v1/newsletter/subscribe" onSubmit={onSubmit}>
      <CsrfInput token={csrf} />
      <label htmlFor="newsletter-email" className="visually-hidden">
        Email address
      </label>
      <input id="newsletter-email" type="email" name="email" required autoComplete="email" placeholder="Enter your email" />
      <button type="submit" className="btn" disabled={busy}>
        SUBSCRIBE
      </button>
    </form>
  );
}
