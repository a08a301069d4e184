/// <reference types="astro/client" />

/** The id made when the store was built (astro.config.mjs). */
declare const __STORE_BUILD_ID__: string;

declare namespace App {
  interface Locals {
    requestId: string;
    log: import('@/lib/server/infra/log').Logger;
    services: import('@/lib/server/services').Services;
    /** The signed-in shopper, resolved from the session cookie or bearer token. */
    session: import('@/lib/server/accounts/sessions').ActiveSession | null;
    /** The request carries `Save-Data: on`: smaller images, no carousel slides beyond the first. */
    saveData: boolean;
    /** Set by the HTTP server (src/server/server.ts) from the socket and TRUST_PROXY. */
    clientIp?: string | null;
    /**
     * The store's public origin (https://shop.example), worked out once per request by the HTTP
     * server (src/lib/domain/public-origin.ts); under `astro dev`, the middleware sets the site's.
     */
    publicOrigin: string;
    /** CSRF token of a cookie session, rendered into its forms (null without one). */
    csrfToken: string | null;
    /** The market this request is in (src/lib/domain/markets.ts resolveMarket): its prices, currency and pickup store. */
    market: import('@/lib/domain/markets').MarketCode;
    /** This render is for the shared route cache (src/lib/server/storefront/shared-pages.ts): for nobody, whoever asked. */
    sharedRender?: boolean;
    /** The signed-in shopper's favourite product ids, loaded once per page by the hearts. */
    favouriteIds?: Promise<number[]>;
    /** The page's heart forms are rendered (before its first heart: FavouriteButton.astro). */
    favouriteFormsRendered?: boolean;
  }
}
