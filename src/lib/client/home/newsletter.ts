import { enhanceForm } from '../form-send';
import { TOASTS } from '@/lib/domain/toasts';

/** Sends the newsletter box (NewsletterForm.astro) in place, with toasts. */
export function enhanceNewsletterForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('[data-newsletter-form]')) {
    enhanceForm<{ status?: boolean; message?: string }>(form, {
      failed: TOASTS['newsletter-failed'],
      succeeded: ({ body }) => Boolean(body?.status),
      body: ({ email }) => ({ email }),
      onSuccess: (body, _values, sent) => {
        sent.reset();
        return { toast: body.message ?? 'Thank you for subscribing.' };
      },
    });
    form.dataset.enhanced = '';
  }
}
