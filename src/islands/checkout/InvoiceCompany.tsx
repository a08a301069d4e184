import Field from '@/components/Field';

/** What checkout asks of a company buyer in a market that issues tax invoices (the server's own words and limits). */
export interface CompanyOffer {
  /** "VAT number" (ZA) or "TIN" (NG). */
  taxNumberLabel: string;
  /** The number's shape, as its hint says it. */
  taxNumberHint: string;
  companyMax: number;
}

/**
 * "Buying for a company?": its name and VAT number or TIN, printed on the order's tax invoice.
 * A disclosure the shopper opens, so it is out of the way and works before scripts run; the
 * fields are the checkout form's own (company, taxNumber), and the server checks them.
 */
export default function InvoiceCompany({ offer, disabled }: { offer: CompanyOffer; disabled: boolean }) {
  return (
    <details className="po-company">
      <summary>Buying for a company?</summary>
      <fieldset disabled={disabled}>
        <legend className="visually-hidden">Company on the tax invoice</legend>
        <p className="po-company-lead">We print these on your tax invoice.</p>
        <Field id="po-company" label="Company name" name="company" autoComplete="organization" maxLength={offer.companyMax} />
        <Field id="po-tax-number" label={`${offer.taxNumberLabel} (optional)`} name="taxNumber" autoComplete="off" spellCheck={false} hint={offer.taxNumberHint} />
      </fieldset>
    </details>
  );
}
