/**
 * The store as a whole in structured data (schema.org OnlineStore, an Organization): its name,
 * logo and ways to reach it (the Contact page's customer care and each market's boutique), and the
 * return policy and shipping service of every market, store-wide. Pure.
 */
import { STORE_NAME } from './brand';
import { MARKET_CODES, MARKETS } from './markets';
import { returnPolicyLd, shippingServiceLd } from './merchant';
import { BOUTIQUES } from './shipping';

/** Customer care as the Contact page states it (its frontmatter). */
export interface CustomerCare {
  phone: string;
  email: string;
}

const tel = (phone: string) => phone.replace(/[^+\d]/g, '');

export function onlineStoreLd(site: string, care: CustomerCare | undefined): Record<string, unknown> {
  const home = new URL('/', site).toString();
  return {
    '@context': 'https://schema.org',
    '@type': 'OnlineStore',
    '@id': `${home}#store`,
    name: STORE_NAME,
    url: home,
    logo: new URL('/favicon.svg', site).toString(),
    contactPoint: [
      ...(care ? [{ '@type': 'ContactPoint', contactType: 'customer service', telephone: tel(care.phone), email: care.email, url: new URL('/contact', site).toString() }] : []),
      ...MARKET_CODES.map((m) => ({
        '@type': 'ContactPoint',
        contactType: 'customer service',
        areaServed: m,
        telephone: tel(BOUTIQUES[m].phone),
        email: BOUTIQUES[m].email,
        name: BOUTIQUES[m].location.name,
      })),
    ],
    hasMerchantReturnPolicy: MARKET_CODES.map((m) => returnPolicyLd(m)),
    hasShippingService: MARKET_CODES.map((m) => shippingServiceLd(m)),
    areaServed: MARKET_CODES.map((m) => MARKETS[m].countryName),
  };
}
