import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { parseCsv } from '../helpers/tax-files.js';

/**
 * docs/ledger.md's table of the type catalog is rendered from sql/seeds/type_catalog.csv, between the markers below;
 * this test fails when the two differ. `LEDGERPIPE_WRITE_README=1` renders it into docs/ledger.md anew.
 */
const START = '<!-- type catalog: rendered from sql/seeds/type_catalog.csv by test/docs/readme-catalog.test.ts -->';
const END = '<!-- end of type catalog -->';

const SOURCES: readonly [string, string][] = [
  ['margin_records', 'Margin records'],
  ['futures_fills', 'Futures fills'],
  ['withdrawals', 'Withdrawals'],
  ['deposits', 'Deposits'],
  ['futures_tax_records', 'Futures tax records'],
  ['spot_tax_records', 'Spot tax records'],
  ['p2p_tax_records', 'P2P tax records'],
  ['uta_tax_records', 'Unified account tax records (docs/unified-accounts.md)'],
  ['uta_financial_records', 'Unified account financial records (docs/unified-accounts.md)'],
  ['copy_transfers', 'Copy-trading transfers (docs/unified-accounts.md)'],
  ['copy_profit_shares', 'Copy-trading profit shares (docs/unified-accounts.md)'],
  ['lead_trader_profits', 'Lead-trader profit shares (docs/unified-accounts.md)'],
  ['ledgerpipe', 'Rules of ledgerpipe itself'],
];

/** `https://host/a/b/Page (note)` as a short link and the note. */
function source(cell: string): string {
  const [url = '', ...rest] = cell.split(' ');
  if (!url.startsWith('http')) return cell;
  const name = url.replace(/\/$/, '').split('/').at(-1) as string;
  return `[${name}](${url})${rest.length > 0 ? ` ${rest.join(' ')}` : ''}`;
}

function both(inValue: string, outValue: string, empty: string): string {
  if (inValue === outValue) return inValue === '' ? empty : inValue;
  return (
    [inValue === '' ? '' : `in: ${inValue}`, outValue === '' ? '' : `out: ${outValue}`]
      .filter((x) => x !== '')
      .join(', ') || empty
  );
}

async function rendered(): Promise<string> {
  const csv = parseCsv(await readFile(join(packageRoot(), 'sql', 'seeds', 'type_catalog.csv'), 'utf8'));
  const head = csv[0] as string[];
  const catalog = csv.slice(1).map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));
  const classes = parseCsv(await readFile(join(packageRoot(), 'sql', 'seeds', 'tax_classes.csv'), 'utf8')).slice(1);
  const inFiles = new Map(classes.map((r) => [r[0] as string, r[2] === 'yes']));
  const out: string[] = [START];
  for (const [key, title] of SOURCES) {
    const rows = catalog.filter((r) => r['source'] === key);
    out.push(
      '',
      `**${title}** (\`${key}\`)`,
      '',
      '| field | type | category | direction | tax class | Koinly | CoinTracking | meaning; source |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const r of rows) {
      const moves = r['direction'] !== 'none' || r['source'] === 'ledgerpipe';
      const filed = moves && inFiles.get(r['tax_class'] as string) === true;
      const koinly = !moves
        ? ''
        : !filed
          ? 'left out'
          : both(r['koinly_in'] as string, r['koinly_out'] as string, 'no tag');
      const ct = !moves
        ? ''
        : !filed
          ? 'left out'
          : both(r['cointracking_in'] as string, r['cointracking_out'] as string, '');
      const cells = [
        r['field'],
        `\`${r['type']}\``,
        r['category'],
        r['direction'],
        r['tax_class'],
        koinly,
        ct,
        `${r['meaning']}; ${source(r['documented_in'] as string)}`,
      ];
      out.push(`| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`);
    }
  }
  out.push('', END);
  return out.join('\n');
}

describe('docs/ledger.md', () => {
  it('shows the type catalog exactly as sql/seeds/type_catalog.csv has it', async () => {
    const path = join(packageRoot(), 'docs', 'ledger.md');
    const readme = await readFile(path, 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect([start >= 0, end > start]).toEqual([true, true]);
    const table = await rendered();
    if (process.env['LEDGERPIPE_WRITE_README'] === '1')
      await writeFile(path, readme.slice(0, start) + table + readme.slice(end + END.length));
    else expect(readme.slice(start, end + END.length)).toBe(table);
  });
});
