/** The store's name, as pages, mails, structured data and error pages show it. */
export const STORE_NAME = 'Maison Luxe';
