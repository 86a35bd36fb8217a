/** What a secret becomes in any text that came from the server. */
export const REDACTED = '[redacted]';

/**
 * A function that takes every occurrence of `secrets` out of a text: the one pass every answer of the platform
 * goes through before anything reads it (a proxy or gateway may echo the request headers in an error), so no
 * message, log line, stored payload or file can carry them. Empty secrets are ignored; longer ones go first, so
 * a secret that holds another is taken out whole.
 *
 * @example
 * const redact = redactor(['k3y', 'pa55']);
 * redact('headers: ACCESS-KEY=k3y') // => 'headers: ACCESS-KEY=[redacted]'
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets.filter((s) => s !== ''))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => list.reduce((t, secret) => (t.includes(secret) ? t.split(secret).join(REDACTED) : t), text);
}
