/** XML's special characters in text and attribute values (the feeds and the sitemap write both). */
const XML_SPECIAL = /[&<>"]/;

/** `s` as XML text: `&`, `<`, `>` and `"` as entities; most cells have none, so they are returned as they are. */
export const xmlText = (s: string): string =>
  XML_SPECIAL.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s;
