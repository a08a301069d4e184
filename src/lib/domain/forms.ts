/**
 * Names shared by server-rendered forms, the islands that enhance them and the server that
 * reads them. Kept here (pure, tiny) so islands can import it without server code.
 */

/** The hidden input carrying the CSRF token of a cookie-authenticated form (src/lib/server/infra/csrf.ts). */
export const CSRF_FIELD = '_csrf';
