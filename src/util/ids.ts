/**
 * Compares two non-negative integers written in decimal (the platform's ids are 19-digit strings, beyond
 * Number's exact range). Leading zeros are ignored.
 *
 * @example
 * compareIds('1127564823483396096', '999') // > 0
 */
export function compareIds(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}
