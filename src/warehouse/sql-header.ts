/**
 * The declaration a SQL file ends its leading comments with (docs/transform.md): what it creates, the relations and
 * macros of other files it reads, and the session variables it takes, each a comma list of bare names, `-` for none.
 *
 * @example
 * header(['lp_legs_deposits'], ['typed_deposits'])
 * // => '-- creates: lp_legs_deposits\n-- reads: typed_deposits\n-- params: -'
 */
export function header(creates: readonly string[], reads: readonly string[], params: readonly string[] = []): string {
  const list = (names: readonly string[]): string => (names.length === 0 ? '-' : names.join(', '));
  return `-- creates: ${list(creates)}\n-- reads: ${list(reads)}\n-- params: ${list(params)}`;
}
