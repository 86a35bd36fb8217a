/** The report's HTML pieces (report.html): text escaped, table cells and tables. */

export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A value as the page writes it: empty for none. */
export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export const cell = (value: unknown, cls = ''): string => `<td${cls === '' ? '' : ` class="${cls}"`}>${escape(text(value))}</td>`;

/** A table with its header, or a line saying `empty` when it has no row. */
export function table(id: string, head: readonly string[], body: readonly string[], empty: string): string {
  if (body.length === 0) return `<p class="none">${escape(empty)}</p>`;
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** A table with its header and a foot row of totals (`foot`: its cells), or a line saying `empty` when it has no row. */
export function tableWithTotals(id: string, head: readonly string[], body: readonly string[], foot: string, empty: string): string {
  if (body.length === 0) return `<p class="none">${escape(empty)}</p>`;
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody><tfoot><tr class="total">${foot}</tr></tfoot></table>`;
}
