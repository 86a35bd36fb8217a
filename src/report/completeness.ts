import { formatInstant } from '../time/instant.js';
import { cell, escape, table, text } from './html.js';
import type { Window } from '../time/window.js';
import { readCompleteness, readResiduals, type Completeness } from '../warehouse/completeness.js';
import { literal } from '../warehouse/quote.js';
import { hasTables } from '../warehouse/tables.js';
import { timestampTzSql } from '../warehouse/time-values.js';
import type { Valuation } from '../warehouse/values.js';
import type { Warehouse } from '../warehouse/warehouse.js';


/**
 * The report's "Holdings" section (docs/completeness.md, "Holdings"): per account type and asset, what was held at
 * the range's start and end, valued at the hour's close, with how each is known; not known is listed, not guessed.
 */
export async function holdingsSection(warehouse: Warehouse, range: Window, valuation: Valuation, account: string | undefined): Promise<string> {
  if (!(await warehouse.exclusive((c) => hasTables(c, ['lp_holdings_valued'])))) return '<section><h2>Holdings</h2><p class="none">No transform has made the holdings yet.</p></section>';
  const found = await warehouse.exclusive(async (c) =>
    (
      await c.runAndReadAll(
        `SELECT account, account_type, asset, epoch_ms("at") AS at_ms, lp_decimal_text(quantity) AS quantity, lp_decimal_text(value_usdt) AS value_usdt,
           lp_decimal_text(value_fiat) AS value_fiat, source
         FROM lp_holdings_valued
         WHERE "at" IN (${timestampTzSql(range.start)}, ${timestampTzSql(range.end)})${account === undefined ? '' : ` AND account = ${literal(account)}`}
         ORDER BY account, "at", account_type, asset`,
      )
    ).getRowObjectsJS(),
  );
  const fiat = valuation.fiat;
  const body = found.map(
    (r) =>
      `<tr class="${r['quantity'] === null ? 'unknown' : ''}" data-account="${escape(text(r['account']))}" data-account-type="${escape(text(r['account_type']))}" data-asset="${escape(text(r['asset']))}" data-at="${escape(formatInstant(Number(r['at_ms'])))}">` +
      [cell(r['account']), cell(formatInstant(Number(r['at_ms']))), cell(r['account_type']), cell(r['asset']), cell(r['quantity'] ?? 'not known', 'num quantity'), cell(r['value_usdt'], 'num value-usdt'), ...(fiat === null ? [] : [cell(r['value_fiat'], 'num value-fiat')]), cell(r['source'])].join('') +
      '</tr>',
  );
  const head = ['Account', 'At', 'Account type', 'Asset', 'Quantity', 'Value USDT', ...(fiat === null ? [] : [`Value ${fiat}`]), 'Known from'];
  return `<section><h2>Holdings</h2><p class="note">At the range's start and end, per account type and asset (holdings). Known from a snapshot, a later snapshot rolled back by the ledger, or a running balance; "not known" is never guessed (docs/completeness.md).</p>${table('holdings', head, body, "No holdings at the range's ends.")}</section>`;
}

/**
 * The report's "Completeness" section: every break and unexplained difference with what to look at, or one line
 * saying every chain and snapshot agrees; then the unpaired transfers, listed.
 */
export async function completenessSection(warehouse: Warehouse, account: string | undefined, known?: Completeness): Promise<string> {
  const c = known ?? (await readCompleteness(warehouse, account));
  if (c === undefined) return '<section><h2>Completeness</h2><p class="none">No transform has made the completeness views yet.</p></section>';
  const items = [
    ...c.breaks.slice(0, 100).map(
      (b) =>
        `<li class="break">Break: ${escape(`${b.account} ${b.stream}${b.partition === '' ? '' : ` ${b.partition}`} ${b.asset}`)} at ${escape(formatInstant(b.ts))}, record ${escape(b.sourceId)}: expected ${escape(b.expected)}, reported ${escape(b.reported)}, difference ${escape(b.difference)}. A record before it is missing or misread; its movement is the difference (balance_breaks).</li>`,
    ),
    ...c.signMismatches.slice(0, 100).map(
      (m) =>
        `<li class="sign-mismatch">Sign mismatch: ${escape(`${m.account} ${m.stream}${m.partition === '' ? '' : ` ${m.partition}`} ${m.asset}`)} at ${escape(formatInstant(m.ts))}, record ${escape(m.sourceId)} (${escape(`${m.field} "${m.type}"`)}, amount ${escape(m.amount)}): booked ${escape(m.booked)}, the balance moved ${escape(m.step)}. The type's label, or its catalog row, reads backwards (sign_mismatches).</li>`,
    ),
    ...c.unexplained.map(
      (u) =>
        `<li class="unexplained">Unexplained: ${escape(`${u.account} ${u.accountType} ${u.asset}`)} from ${escape(formatInstant(u.from))} to ${escape(formatInstant(u.to))}: the snapshots changed by ${escape(u.snapshotChange)}, the ledger by ${escape(u.ledgerChange)} (reconciliation).</li>`,
    ),
  ];
  if (c.counts.breaks > 100) items.push(`<li>and ${c.counts.breaks - 100} more breaks (balance_breaks)</li>`);
  if (c.counts.signMismatches > 100) items.push(`<li>and ${c.counts.signMismatches - 100} more sign mismatches (sign_mismatches)</li>`);
  const steps = `${c.steps.checked} running-balance steps checked${c.steps.unchecked > 0 ? `, ${c.steps.unchecked} not (the record has a fee, or a span between the two was not read)` : ''}`;
  const findings = items.length === 0 ? `<p id="complete">Every running balance and every snapshot agrees with the records: ${escape(steps)}.</p>` : `<p>${escape(steps)}.</p><ul id="findings">${items.join('')}</ul>`;
  const unpaired =
    c.counts.unpaired === 0
      ? '<p id="transfers-paired">Every internal transfer has its counterpart.</p>'
      : `<ul id="unpaired">${c.unpaired.slice(0, 100).map((t) => `<li>Unpaired transfer: ${escape(`${t.account} ${t.accountType} ${t.asset} ${t.amount}`)} at ${escape(formatInstant(t.ts))} (${escape(`${t.stream} ${t.sourceId}`)}): ${escape(t.possibleReason)}.</li>`).join('')}</ul>`;
  const unread = c.unavailable.map((u) => `<li>${escape(`${u.account} ${u.accountType}`)}: balances not readable with this key (${escape(u.reason)}).</li>`).join('');
  return `<section><h2>Completeness</h2>${findings}${unpaired}${unread === '' ? '' : `<ul id="unavailable">${unread}</ul>`}</section>`;
}

/**
 * Beside the holdings (docs/completeness.md, "Open loans"; "Bots and copy trading: residuals"): the open loans of the
 * latest snapshot and the bots' residuals of the range, each labelled; nothing of either is booked. Nothing to show:
 * no section.
 */
export async function residualsSection(warehouse: Warehouse, range: Window, account: string | undefined): Promise<string> {
  const { loans, bots } = await readResiduals(warehouse, range, account);
  if (loans.length === 0 && bots.length === 0) return '';
  const loanRows = loans.map(
    (l) => `<tr data-order="${escape(l.orderId)}">${[cell(l.account), cell(formatInstant(l.asOf)), cell(l.orderId), cell(l.coin), cell(l.amount, 'num'), cell(l.interest, 'num'), cell(l.collateralCoin), cell(l.collateralAmount, 'num')].join('')}</tr>`,
  );
  const botRows = bots.map(
    (b) => `<tr>${[cell(b.account), cell(b.asset), cell(formatInstant(b.from)), cell(formatInstant(b.to)), cell(b.change, 'num'), cell(b.transfers, 'num'), cell(b.residual ?? 'not known', 'num')].join('')}</tr>`,
  );
  return `<section><h2>Open loans and bots</h2><p class="note">What the balances show and no record books: the loans open at the latest snapshot (loans), and the bots' result between two snapshots, a residual (bot_results: the change in bot assets less the net strategy transfers). Neither is booked; the residual is never income (docs/completeness.md).</p>${
    loans.length === 0 ? '' : table('loans', ['Account', 'As of', 'Loan', 'Coin', 'Owed', 'Interest', 'Collateral', 'Pledged'], loanRows, '')
  }${bots.length === 0 ? '' : table('bot-results', ['Account', 'Asset', 'From', 'To', 'Bot assets change', 'Net transfers in', 'Residual'], botRows, '')}</section>`;
}
