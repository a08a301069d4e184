import { boutiqueAt, formatAddress, type AddressDto } from '@/lib/domain/shipping';

/** A read-only address of the checkout: where the order goes, or the boutique it is collected from. */
export default function Address({ address, title, change }: { address: AddressDto; title: string; change?: string }) {
  // The boutique says when it is open and what to bring (the store's boutique facts).
  const boutique = boutiqueAt(address);
  return (
    <div className="po-address" aria-label={title} role="group">
      <p className="po-address-title">
        {title}
        {change && (
          <a className="po-change" href={change} aria-label={`Change ${title.toLowerCase()}`}>
            Change
          </a>
        )}
      </p>
      <p className="po-address-name">{address.name}</p>
      <p>{formatAddress(address)}</p>
      {boutique && (
        <>
          <p className="po-address-hours">{boutique.hours}</p>
          <p className="po-address-note">{boutique.pickupNote}</p>
        </>
      )}
    </div>
  );
}
