import type { ReactNode } from 'react';

/** A form's submit button: disabled while the form is busy, saying `busyLabel` meanwhile. */
export default function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <button className="btn" type="submit" disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
