import type { ReactNode } from 'react';

/**
 * "Verify your phone", the page's own forms (they post apart from the checkout form and come back
 * to this page), right above the pay button. It shows while Pay on delivery is ticked (CSS :has on
 * the form, or the page opened with it chosen), so also before scripts run.
 */
export default function VerifyPhoneStep({ children }: { children?: ReactNode }) {
  return children ? <>{children}</> : null;
}
