import { COUNTRIES, COUNTRY_NAMES } from '@/lib/domain/geo';

/** The <option>s of a country <select>: sign-up, settings and addresses offer the same list. */
export default function CountryOptions() {
  return (
    <>
      {COUNTRIES.map((c) => (
        <option key={c} value={c}>
          {COUNTRY_NAMES[c]}
        </option>
      ))}
    </>
  );
}
