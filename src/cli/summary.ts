import { text } from '../gains/decimal.js';
import type { GainsResult } from '../gains/gains.js';
import type { TransformSummary } from '../transform/stage.js';
import type { UnreviewedType } from '../transform/unreviewed.js';
import type { NotFinal } from '../reads/reports.js';
import type { FiatValued, PriceResult } from '../prices/extract-prices.js';
import type { Unpriced } from '../prices/unpriced.js';

/** The summary printed on stdout after a transform: rows per table, then ledger totals. */
export function transformSummaryLines(summary: TransformSummary, options: { verbose?: boolean } = {}): string[] {
  const lines = ['table                 rows'];
  for (const [name, n] of Object.entries(summary.rows)) lines.push(`${name.padEnd(20)} ${String(n).padStart(9)}`);
  if (options.verbose === true) {
    lines.push('', 'account      asset     category              entries  total');
    for (const t of summary.totals) {
      lines.push(
        `${t.account.padEnd(12)} ${t.asset.padEnd(9)} ${t.category.padEnd(20)} ${String(t.entries).padStart(8)}  ${t.amount}`,
      );
    }
  }
  const unreviewed = unreviewedLines(summary.unreviewed);
  if (unreviewed.length > 0) lines.push('', ...unreviewed);
  lines.push('', `type catalog ${summary.report.catalogVersion}`);
  return lines;
}

/** One line per unreviewed type and asset, after a heading that says what to do; none when there are none. */
export function unreviewedLines(list: readonly UnreviewedType[], indent = ''): string[] {
  if (list.length === 0) return [];
  return [
    `${indent}types not in the type catalog, booked as unreviewed (add each to your catalog file, --catalog FILE: docs/ledger.md, "Adding a type"):`,
    ...list.map(
      (u) =>
        `${indent}  ${u.account} ${u.source} ${u.field} "${u.type}": ${u.records} record${u.records === 1 ? '' : 's'}, ${u.asset} ${u.total}`,
    ),
  ];
}

/**
 * The withdrawals and deposits of the range that were not final at its end, per account, stream, state and
 * asset: the ledger leaves out what did not move, and a year-end should say they exist. None when there are none.
 */
export function notFinalLines(list: readonly NotFinal[], indent = ''): string[] {
  if (list.length === 0) return [];
  return [
    `${indent}withdrawals and deposits not final at the range's end (the ledger books them only once final):`,
    ...list.map(
      (n) =>
        `${indent}  ${n.account} ${n.stream} ${n.asset}: ${n.count} ${n.state === 'open' ? 'still pending now' : 'final only after the end'}, ${n.total}`,
    ),
  ];
}

/** The prices stage in a few lines: each asset's route, and what it asked. */
export function pricesLines(prices: PriceResult): string[] {
  const routes = [...prices.routes].sort(([a], [b]) => a.localeCompare(b));
  return [
    `prices: ${prices.requests} requests, ${prices.candles} new hourly candles, ${prices.rateLimited} answered 429`,
    ...routes.map(
      ([asset, r]) =>
        `  ${asset.padEnd(8)} ${r === undefined ? 'no pair on the platform: unpriced' : `${r.symbol}${r.via === undefined ? '' : ` x ${r.via}`}`}`,
    ),
    ...fiatLines(prices.fiat),
  ];
}

/**
 * How the fiat is valued (docs/values.md, "A fiat"): its pair, or USDTEUR and the ECB's rates, and what was read of
 * them.
 */
function fiatLines(fiat: FiatValued | undefined): string[] {
  if (fiat === undefined) return [];
  const head = `fiat ${fiat.currency}: `;
  if (fiat.source === 'pair') return [`${head}${fiat.pair ?? `USDT${fiat.currency}`}`];
  const ecb = fiat.ecb;
  const read =
    ecb === undefined
      ? ''
      : ecb.failed !== undefined
        ? '; the ECB could not be read'
        : `; ECB: ${ecb.requests} request${ecb.requests === 1 ? '' : 's'}, ${ecb.rates} new daily rate${ecb.rates === 1 ? '' : 's'} (fx_rates)`;
  return [`${head}USDTEUR x the European Central Bank's euro rate of the day${read}`];
}

/** The assets whose movements have no value, with what to do; none when every movement is valued. */
/** Realized gains: the method, and what no acquisition explains (docs/gains.md). */
export function gainsLines(gains: GainsResult): string[] {
  const lines = [
    `realized gains (${gains.costBasis}, in ${gains.unit}): ${gains.disposals} disposal slices in disposals, ${gains.lots} lots open at the end; gains_summary adds them up`,
  ];
  if (gains.unmatched === 0) return lines;
  const assets = [...gains.unmatchedByAsset].sort(([a], [b]) => a.localeCompare(b));
  const shown = assets
    .slice(0, 6)
    .map(([asset, quantity]) => `${asset} ${text(quantity)}`)
    .join(', ');
  const more = assets.length > 6 ? ` and ${assets.length - 6} more assets` : '';
  return [
    ...lines,
    `  ${gains.unmatched} slices disposed of more than the lots held (${shown}${more}): zero cost, flagged no_acquisition; give the lots held before with --opening-lots (docs/gains.md)`,
  ];
}

export function unpricedLines(list: readonly Unpriced[], indent = ''): string[] {
  if (list.length === 0) return [];
  return [
    `${indent}movements without a value (left empty, never guessed; docs/values.md):`,
    ...list.map(
      (u) =>
        `${indent}  ${u.asset}: ${u.entries} without ${u.missing === 'usdt' ? 'a USDT price' : `a ${u.missing} rate`}`,
    ),
  ];
}
