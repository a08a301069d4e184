/** The store's name, as shoppers read it in titles, mail and the small error pages. */
export const STORE_NAME = 'Maison Luxe';
