/** What a secret becomes in any text that came from the server. */
export const REDACTED = '[redacted]';

/**
 * The platform's credentials are at least this long (the passphrase: 8 to 32 letters and digits; keys and
 * secrets are longer). A shorter string is no real credential, and taking it out of every answer would cut
 * ordinary words apart.
 */
export const SHORTEST_SECRET = 8;

/**
 * A function that takes every occurrence of `secrets` out of a text: the one pass every answer of the platform
 * goes through before anything reads it (a proxy or gateway may echo the request headers in an error), so no
 * message, log line, stored payload or file can carry them. Strings shorter than SHORTEST_SECRET are left
 * alone; longer secrets go first, so a secret that holds another is taken out whole.
 *
 * @example
 * const redact = redactor(['bg_3f2a9c1d7e', 'Passphrase9']);
 * redact('headers: ACCESS-KEY=bg_3f2a9c1d7e') // => 'headers: ACCESS-KEY=[redacted]'
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets.filter((s) => s.length >= SHORTEST_SECRET))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => list.reduce((t, secret) => (t.includes(secret) ? t.split(secret).join(REDACTED) : t), text);
}

/**
 * `value` (parsed JSON) with `redact` applied to every string in it. For an answer whose text holds JSON
 * escapes (\u0041), which could spell a secret the pass over the text did not see.
 */
export function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactStrings(v, redact)]));
  }
  return value;
}
