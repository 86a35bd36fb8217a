/**
 * The one place SQL text gets a name or a literal spliced in: identifiers double-quoted, string literals
 * single-quoted, each with its quote doubled. Values from users go through bind parameters where DuckDB takes
 * them; these are for the places it does not (COPY targets, generated column lists).
 *
 * @example
 * ident('trade_id') // => '"trade_id"'
 * literal("it's") // => "'it''s'"
 */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
