/**
 * Names shared by server-rendered forms, the islands that enhance them and the server that
 * reads them. Kept here (pure, tiny) so islands can import it without server code.
 */

/** The hidden input carrying the CSRF token of a cookie-authenticated form (src/lib/server/infra/csrf.ts). */
export const CSRF_FIELD = '_csrf';

/**
 * The ids of a page's two heart forms (personal-parts.ts favouriteForms): every heart on the page is
 * a button that submits one of them with its product (`form=`), so the page carries one CSRF token
 * for all its hearts, not one each. Each id ends in its action: the hearts' script swaps the suffix.
 */
export const FAVOURITE_FORMS = { add: 'ml-fav-add', remove: 'ml-fav-remove' } as const;
