import { formatInstant } from '../time/instant.js';
import { completenessHeadline, type HoldingsKnown } from './completeness-words.js';
import { formatBalanceDate } from './format.js';
import { cell, escape, moneyCell, quantityCell, table, tableWithTotals, text } from './html.js';
import type { Window } from '../time/window.js';
import { readCompleteness, readResiduals, type Completeness } from '../reads/completeness.js';
import { param, readModel, withParams } from '../warehouse/sql-graph.js';
import { hasTables } from '../duckdb/tables.js';
import type { Valuation } from '../warehouse/values.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** The holdings at the range's ends as the report reads them: each row, and how many of them are known. */
export interface HoldingsAtEnds {
  rows: Record<string, unknown>[];
  known: HoldingsKnown;
}

/** The holdings of lp_holdings_valued at the range's ends (docs/completeness.md, "Holdings"), one account or all. */
export async function readHoldingsAtEnds(
  warehouse: Warehouse,
  range: Window,
  account: string | undefined,
): Promise<HoldingsAtEnds | undefined> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['lp_holdings_valued'])))) return undefined;
  const params = {
    lp_from: param.instant(range.start),
    lp_to: param.instant(range.end),
    lp_account: param.text(account),
  };
  const rows = await warehouse.exclusive((c) =>
    withParams(c, params, () => readModel(c, 'report/holdings_at_ends.sql')),
  );
  return { rows, known: { rows: rows.length, notKnown: rows.filter((r) => r['quantity'] === null).length } };
}

/**
 * The report's "Holdings" section (docs/completeness.md, "Holdings"): what was held at the range's start and at its
 * end, a table each, dated as an accountant dates them (the end of 31 December 2025, not 1 January 2026), per
 * account, account type and asset, valued at the hour's close, with how each is known, and the total of the values
 * known; not known is listed, not guessed, and said beside the total.
 */
export function holdingsSection(holdings: HoldingsAtEnds | undefined, range: Window, valuation: Valuation): string {
  if (holdings === undefined)
    return '<section><h2>Holdings</h2><p class="none">No transform has made the holdings yet.</p></section>';
  const fiat = valuation.fiat;
  const head = [
    'Account',
    'Account type',
    'Asset',
    'Quantity',
    'Value USDT',
    ...(fiat === null ? [] : [`Value ${fiat}`]),
    'Known from',
  ];
  const tables = (['opening', 'closing'] as const).map((side) => {
    const at = side === 'opening' ? range.start : range.end;
    const rows = holdings.rows.filter((r) => Number(r['as_of_ms']) === at);
    const body = rows.map(
      (r) =>
        `<tr class="${r['quantity'] === null ? 'unknown' : ''}" data-account="${escape(text(r['account']))}" data-account-type="${escape(text(r['account_type']))}" data-asset="${escape(text(r['asset']))}" data-as-of="${escape(formatInstant(at))}">` +
        [
          cell(r['account']),
          cell(r['account_type']),
          cell(r['asset']),
          r['quantity'] === null ? cell('not known', 'num quantity') : quantityCell(r['quantity'], 'num quantity'),
          moneyCell(r['value_usdt'], 'num value-usdt'),
          ...(fiat === null ? [] : [moneyCell(r['value_fiat'], 'num value-fiat')]),
          cell(r['source']),
        ].join('') +
        '</tr>',
    );
    const notKnown = rows.filter((r) => r['quantity'] === null).length;
    const unvalued = rows.filter((r) => r['quantity'] !== null && r['value_usdt'] === null).length;
    const left = [
      notKnown > 0 ? `${notKnown} not known: in no total` : '',
      unvalued > 0 ? `${unvalued} without a USDT price: not in the USDT total` : '',
    ]
      .filter((t) => t !== '')
      .join('; ');
    const foot = [
      `<td colspan="4">Total${left === '' ? '' : ` of the values known (${escape(left)})`}</td>`,
      moneyCell(sumDecimals(rows.map((r) => r['value_usdt'])), 'num value-usdt'),
      ...(fiat === null ? [] : [moneyCell(sumDecimals(rows.map((r) => r['value_fiat'])), 'num value-fiat')]),
      '<td></td>',
    ].join('');
    const title = `${side === 'opening' ? 'Held at the start' : 'Held at the end'}: ${formatBalanceDate(at, valuation.timeZone, side)}`;
    return `<h3 id="holdings-${side}-title">${escape(title)}</h3>${tableWithTotals(`holdings-${side}`, head, body, foot, 'Nothing held.')}`;
  });
  return `<section><h2>Holdings</h2><p class="note">Per account, account type and asset, valued at the hour's close. Known from a snapshot, a later snapshot rolled back by the ledger, or a running balance; "not known" is never guessed (docs/completeness.md).</p>${tables.join('')}</section>`;
}

/**
 * The exact sum of decimal texts (nulls left out), written as lp_decimal_text writes one (no trailing zeros), or
 * null when none is present: added as integers of their largest scale, never as JS numbers.
 */
function sumDecimals(values: readonly unknown[]): string | null {
  const present = values.filter((v): v is string => typeof v === 'string' && v !== '');
  if (present.length === 0) return null;
  const scale = Math.max(0, ...present.map((v) => (v.split('.')[1] ?? '').length));
  const units = present.reduce((sum, v) => {
    const [whole = '0', fraction = ''] = v.split('.');
    const negative = whole.startsWith('-');
    const digits = BigInt(`${whole.replace('-', '')}${fraction.padEnd(scale, '0')}`);
    return sum + (negative ? -digits : digits);
  }, 0n);
  const sign = units < 0n ? '-' : '';
  const abs = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const written =
    scale === 0 ? abs : `${abs.slice(0, -scale)}.${abs.slice(-scale)}`.replace(/0+$/, '').replace(/\.$/, '');
  return `${sign}${written}`;
}

/**
 * The report's "Completeness" section: every break and unexplained difference with what to look at, or one line
 * saying every chain and snapshot agrees; then the unpaired transfers, listed.
 */
export async function completenessSection(
  warehouse: Warehouse,
  account: string | undefined,
  known: Completeness | undefined,
  holdings: HoldingsKnown | undefined,
): Promise<string> {
  const c = known ?? (await readCompleteness(warehouse, account));
  if (c === undefined)
    return '<section><h2>Completeness</h2><p class="none">No transform has made the completeness views yet.</p></section>';
  const items = [
    ...c.breaks
      .slice(0, 100)
      .map(
        (b) =>
          `<li class="break">Break: ${escape(`${b.account} ${b.stream}${b.partition === '' ? '' : ` ${b.partition}`} ${b.asset}`)} at ${escape(formatInstant(b.ts))}, record ${escape(b.sourceId)}: expected ${escape(b.expected)}, reported ${escape(b.reported)}, difference ${escape(b.difference)}. A record before it is missing or misread; its movement is the difference (balance_breaks).</li>`,
      ),
    ...c.signMismatches
      .slice(0, 100)
      .map(
        (m) =>
          `<li class="sign-mismatch">Sign mismatch: ${escape(`${m.account} ${m.stream}${m.partition === '' ? '' : ` ${m.partition}`} ${m.asset}`)} at ${escape(formatInstant(m.ts))}, record ${escape(m.sourceId)} (${escape(`${m.field} "${m.type}"`)}, amount ${escape(m.amount)}): booked ${escape(m.booked)}, the balance moved ${escape(m.step)}. The type's label, or its catalog row, reads backwards (sign_mismatches).</li>`,
      ),
    ...c.unexplained.map(
      (u) =>
        `<li class="unexplained">Unexplained: ${escape(`${u.account} ${u.accountType} ${u.asset}`)} from ${escape(formatInstant(u.periodStart))} to ${escape(formatInstant(u.periodEnd))}: the snapshots changed by ${escape(u.snapshotChange)}, the ledger by ${escape(u.ledgerChange)} (reconciliation).</li>`,
    ),
  ];
  if (c.counts.breaks > 100) items.push(`<li>and ${c.counts.breaks - 100} more breaks (balance_breaks)</li>`);
  if (c.counts.signMismatches > 100)
    items.push(`<li>and ${c.counts.signMismatches - 100} more sign mismatches (sign_mismatches)</li>`);
  const [headline, ...more] = completenessHeadline(c, holdings);
  const said = `<p id="${items.length === 0 ? 'complete' : 'headline'}">${escape(headline as string)}.</p>${more.map((m) => `<p class="not-compared">${escape(m)}.</p>`).join('')}`;
  const findings = items.length === 0 ? said : `${said}<ul id="findings">${items.join('')}</ul>`;
  const unpaired =
    c.counts.unpaired === 0
      ? '<p id="transfers-paired">Every internal transfer has its counterpart.</p>'
      : `<ul id="unpaired">${c.unpaired
          .slice(0, 100)
          .map(
            (t) =>
              `<li>Unpaired transfer: ${escape(`${t.account} ${t.accountType} ${t.asset} ${t.amount}`)} at ${escape(formatInstant(t.ts))} (${escape(`${t.stream} ${t.sourceId}`)}): ${escape(t.possibleReason)}.</li>`,
          )
          .join('')}</ul>`;
  const unread = c.unavailable
    .map(
      (u) =>
        `<li>${escape(`${u.account} ${u.accountType}`)}: balances not readable with this key (${escape(u.reason)}).</li>`,
    )
    .join('');
  return `<section><h2>Completeness</h2>${findings}${unpaired}${unread === '' ? '' : `<ul id="unavailable">${unread}</ul>`}</section>`;
}

/**
 * Beside the holdings (docs/completeness.md, "Open loans"; "Bots and copy trading: residuals"): the open loans of the
 * latest snapshot and the bots' residuals of the range, each labelled; nothing of either is booked. Nothing to show:
 * no section.
 */
export async function residualsSection(
  warehouse: Warehouse,
  range: Window,
  account: string | undefined,
): Promise<string> {
  const { loans, bots } = await readResiduals(warehouse, range, account);
  if (loans.length === 0 && bots.length === 0) return '';
  const loanRows = loans.map(
    (l) =>
      `<tr data-order="${escape(l.orderId)}">${[cell(l.account), cell(formatInstant(l.asOf)), cell(l.orderId), cell(l.coin), cell(l.amount, 'num'), cell(l.interest, 'num'), cell(l.collateralCoin), cell(l.collateralAmount, 'num')].join('')}</tr>`,
  );
  const botRows = bots.map(
    (b) =>
      `<tr>${[cell(b.account), cell(b.asset), cell(formatInstant(b.from)), cell(formatInstant(b.to)), cell(b.change, 'num'), cell(b.transfers, 'num'), cell(b.residual ?? 'not known', 'num')].join('')}</tr>`,
  );
  return `<section><h2>Open loans and bots</h2><p class="note">What the balances show and no record books: the loans open at the latest snapshot (loans), and the bots' result between two snapshots, a residual (bot_results: the change in bot assets less the net strategy transfers). Neither is booked; the residual is never income (docs/completeness.md).</p>${
    loans.length === 0
      ? ''
      : table('loans', ['Account', 'As of', 'Loan', 'Coin', 'Owed', 'Interest', 'Collateral', 'Pledged'], loanRows, '')
  }${bots.length === 0 ? '' : table('bot-results', ['Account', 'Asset', 'From', 'To', 'Bot assets change', 'Net transfers in', 'Residual'], botRows, '')}</section>`;
}
