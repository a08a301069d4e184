/**
 * The code forms' e-mail (verification, reset). Apart from forms.ts so that islands without a
 * code form do not load the store binding.
 */
import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';
import { useEffect, useState } from 'react';

/** The props of a form that works on a code sent to an e-mail (verification, reset). */
export interface CodeFormProps {
  /** The session's CSRF token for the form (src/components/CsrfInput.tsx). */
  csrf?: string | null;
  /** From ?email= after a form posted without scripts. */
  initialEmail?: string | null;
}

/**
 * The e-mail such a form works for: the one remembered in the browser, or ?email= after a post
 * without scripts. With neither, the shopper is sent to `elsewhere` (where a code is asked for).
 */
export function usePendingEmail(store: ReadableAtom<string | null>, initialEmail: string | null, elsewhere: string) {
  const stored = useStore(store);
  const [ready, setReady] = useState(Boolean(initialEmail));
  useEffect(() => {
    // Read after hydration: the persistent store is only known in the browser.
    if (!store.get() && !initialEmail) window.location.replace(elsewhere);
    else setReady(true);
  }, [store, initialEmail, elsewhere]);
  return { email: stored ?? initialEmail, ready };
}
