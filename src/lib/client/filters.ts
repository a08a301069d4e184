/** The query string for a collection filter link that toggles one parameter (and resets paging). */
export function toggleParam(search: URLSearchParams, key: string, value: string): string {
  const next = new URLSearchParams(search);
  next.delete('page');
  if (next.get(key) === value) next.delete(key);
  else next.set(key, value);
  const qs = next.toString();
  return qs ? `?${qs}` : '';
}
