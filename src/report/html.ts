import { formatDecimal, MONEY_DECIMALS, QUANTITY_DECIMALS } from './format.js';
/** The report's HTML pieces (report.html): text escaped, table cells and tables. */

export const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A value as the page writes it: empty for none. */
export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export const cell = (value: unknown, cls = ''): string =>
  `<td${cls === '' ? '' : ` class="${cls}"`}>${escape(text(value))}</td>`;

/** A number cell for people, its exact value kept in data-exact (docs/report.md). */
export const numberCell = (exact: unknown, decimals: number, fixed: boolean, cls = 'num'): string => {
  const value = text(exact);
  return `<td class="${cls}" data-exact="${escape(value)}">${escape(value === '' ? '' : formatDecimal(value, decimals, fixed))}</td>`;
};
/** Money: two decimals, kept. */
export const moneyCell = (exact: unknown, cls = 'num'): string => numberCell(exact, MONEY_DECIMALS, true, cls);
/** A quantity: up to eight decimals. */
export const quantityCell = (exact: unknown, cls = 'num'): string => numberCell(exact, QUANTITY_DECIMALS, false, cls);

/** A table with its header, or a line saying `empty` when it has no row. */
export function table(id: string, head: readonly string[], body: readonly string[], empty: string): string {
  if (body.length === 0) return `<p class="none">${escape(empty)}</p>`;
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/**
 * A table with its header and a foot row of totals (`foot`: its cells), or a line saying `empty` when it has no row.
 */
export function tableWithTotals(
  id: string,
  head: readonly string[],
  body: readonly string[],
  foot: string,
  empty: string,
): string {
  if (body.length === 0) return `<p class="none">${escape(empty)}</p>`;
  return `<table id="${id}"><thead><tr>${head.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody><tfoot><tr class="total">${foot}</tr></tfoot></table>`;
}
