import { keepDigits } from '@/lib/client/forms';
import Field from '@/components/Field';

/** The 4-digit code of the verification and reset forms: digits only, offered by the phone's keyboard and autofill. */
export default function OtpField({ id, label }: { id: string; label: string }) {
  return (
    <Field
      id={id}
      label={label}
      name="otp"
      className="acct-otp"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{4}"
      maxLength={4}
      required
      onInput={keepDigits}
    />
  );
}
