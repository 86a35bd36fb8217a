import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere, type CliResult } from '../helpers/cli.js';
import { startReplay, type Replay } from '../helpers/replay-server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { rows } from '../helpers/raw.js';

const at = (iso: string): number => Date.parse(iso);
const REGISTERED = at('2024-01-10T09:00:00Z');
/** The platform answers nothing older than this (docs/history.md): a window starting before it is refused. */
const REACH = at('2024-11-01T00:00:00Z');
const DAY = 86_400_000;

/**
 * A spot account opened in January 2024 with a deposit of 2 BTC, which the platform no longer serves, and two
 * sales of half a BTC in 2025, each for USDT at the hour it happened: the spot tax records' own shape
 * (https://www.bitget.com/api-doc/common/tax/Get-Spot-Account-Record), the running balance in `balance`.
 */
const spot = (id: string, ts: string, coin: string, type: string, amount: string, balance: string, order: string) => ({
  id,
  coin,
  spotTaxType: type,
  amount,
  fee: '0',
  balance,
  bizOrderId: order,
  ts: String(at(ts)),
});
const SPOT = [
  spot('1001', '2024-02-01T10:00:00Z', 'BTC', 'Deposit', '2', '2', '9001'),
  spot('2001', '2025-07-01T10:00:00Z', 'BTC', 'Sell', '-0.5', '1.5', '9002'),
  spot('2002', '2025-07-01T10:00:00Z', 'USDT', 'Sell', '30000', '30000', '9002'),
  spot('3001', '2025-09-01T10:00:00Z', 'BTC', 'Sell', '-0.5', '1', '9003'),
  spot('3002', '2025-09-01T10:00:00Z', 'USDT', 'Sell', '35000', '65000', '9003'),
];

let dir: string;
let replay: Replay;
let env: NodeJS.ProcessEnv;
let first: CliResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-history-'));
  replay = await startReplay(
    {
      k1: {
        account: 'default',
        files: [],
        records: [{ prefix: 'spot-record--', rows: SPOT }],
        registeredAt: REGISTERED,
      },
    },
    { reachFrom: REACH },
  );
  env = {
    ...process.env,
    LEDGERPIPE_API_KEY: 'k1',
    LEDGERPIPE_API_SECRET: 's',
    LEDGERPIPE_API_PASSPHRASE: 'p',
    LEDGERPIPE_BASE_URL: replay.baseUrl,
  };
  // One GBP is 1.25 USDT: 0.8 GBP a USDT, all year.
  await writeFile(join(dir, 'gbp.csv'), 'time,currency,rate\n2024-01-01,GBP,0.8\n');
  first = await runCliHere(
    [
      'run',
      'year-end',
      '--year',
      '2025',
      '--fiat',
      'GBP',
      '--fiat-rates',
      join(dir, 'gbp.csv'),
      '--cost-basis',
      'uk',
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'out'),
      '--format',
      'csv',
      '--rate-scale',
      '1000',
    ],
    { env },
  );
}, 120_000);
afterAll(async () => {
  await replay.close();
  await rm(dir, { recursive: true, force: true });
});

describe('history where the platform does not reach the opening', () => {
  it('reads back to the registration, records where the platform stopped answering, lists the opening lots and exits 4', async () => {
    expect(first.status, first.stderr).toBe(4);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(
        await rows(warehouse, "SELECT epoch_ms(registered_at) AS t FROM account_openings WHERE account = 'default'"),
      ).toEqual([{ t: String(REGISTERED) }]);
      // Every window of spot_tax_records from the registration on is read or recorded unreachable, none is left.
      const windows = await rows(
        warehouse,
        "SELECT status, epoch_ms(min(window_start)) AS s, epoch_ms(max(window_end)) AS e, epoch_ms(max(earliest_reachable)) AS r FROM coverage WHERE stream = 'spot_tax_records' GROUP BY status ORDER BY status",
      );
      expect(windows.map((w) => w['status'])).toEqual(['done', 'unreachable']);
      const [done, unreachable] = windows as [Record<string, string>, Record<string, string>];
      expect(Number(unreachable['s'])).toBe(REGISTERED);
      const reach = Number(unreachable['r']);
      // Found to a day at most: at or after the platform's boundary, less than a day past it.
      expect(reach >= REACH && reach < REACH + DAY).toBe(true);
      expect(Number(unreachable['e'])).toBe(reach);
      expect(Number(done['s'])).toBe(reach);
      const manifest = JSON.parse(
        await readFile(join(dir, 'out', 'manifest.json'), 'utf8').catch(() => '{}'),
      ) as Record<string, unknown>;
      // The run exits 4 with its files written: the gap rule is not broken, the gains are incomplete.
      const spotCoverage = (manifest['coverage'] as { stream: string; earliest_reachable: string | null }[]).find(
        (c) => c.stream === 'spot_tax_records',
      );
      expect(spotCoverage?.earliest_reachable).toBe(new Date(reach).toISOString());
      expect(first.stdout).toContain(
        `opening lots needed: fill in the cost of each line (in GBP) and give the file with --opening-lots FILE:\n  account,asset,quantity,cost,currency,acquired_at\n  default,BTC,2,,GBP,${new Date(reach).toISOString()}\n`,
      );
      expect(first.stderr.trim().split('\n').at(-1)).toBe(
        'ledgerpipe: 2 disposal slices of 2025 have no acquisition (BTC 1): the lots held before the history ledgerpipe could read are not known; fill in the cost of each --opening-lots line the summary lists and give the file with --opening-lots (docs/history.md)',
      );
    } finally {
      await warehouse.close();
    }
  });

  it('with the listed line filled in, exits 0 and gives the disposals of the case worked by hand', async () => {
    const listed = /^ {2}(default,BTC,2,,GBP,\S+)$/m.exec(first.stdout)?.[1] as string;
    // What the account paid for its 2 BTC in January 2024: £40,000.
    await writeFile(
      join(dir, 'lots.csv'),
      `account,asset,quantity,cost,currency,acquired_at\n${listed.replace(',,GBP,', ',40000,GBP,')}\n`,
    );
    const second = await runCliHere(
      [
        'export',
        '--year',
        '2025',
        '--opening-lots',
        join(dir, 'lots.csv'),
        '--db',
        join(dir, 'w.duckdb'),
        '--out',
        join(dir, 'out'),
        '--format',
        'csv',
      ],
      { env },
    );
    expect(second.status, second.stderr).toBe(0);
    // By hand, section 104 pool (HMRC CRYPTO22200): 2 BTC for £40,000. 1 July 2025: 0.5 BTC for 30,000 USDT = £24,000;
    // cost 40,000 x 0.5 / 2 = £10,000; gain £14,000. Pool: 1.5 BTC, £30,000. 1 September 2025: 0.5 BTC for 35,000 USDT
    // = £28,000; cost 30,000 x 0.5 / 1.5 = £10,000; gain £18,000.
    const csv = await readFile(join(dir, 'out', 'disposals.csv'), 'utf8');
    const lines = csv.trim().split('\n');
    const header = (lines[0] as string).split(',');
    const pick = (line: string) => {
      const cells = line.split(',');
      return Object.fromEntries(
        ['asset', 'quantity', 'disposed_at', 'proceeds', 'cost', 'gain', 'match_rule', 'unit'].map((c) => [
          c,
          cells[header.indexOf(c)],
        ]),
      );
    };
    expect(lines.slice(1).map(pick)).toEqual([
      {
        asset: 'BTC',
        quantity: '0.5',
        disposed_at: '2025-07-01T10:00:00.000Z',
        proceeds: '24000',
        cost: '10000',
        gain: '14000',
        match_rule: 'section_104',
        unit: 'GBP',
      },
      {
        asset: 'BTC',
        quantity: '0.5',
        disposed_at: '2025-09-01T10:00:00.000Z',
        proceeds: '28000',
        cost: '10000',
        gain: '18000',
        match_rule: 'section_104',
        unit: 'GBP',
      },
    ]);
    // The warehouse keeps the lots: the next export needs no flag and gives the same.
    const third = await runCliHere(
      ['export', '--year', '2025', '--db', join(dir, 'w.duckdb'), '--out', join(dir, 'out'), '--format', 'csv'],
      { env },
    );
    expect(third.status, third.stderr).toBe(0);
    expect(await readFile(join(dir, 'out', 'disposals.csv'), 'utf8')).toBe(csv);
  });

  it('refuses a lot whose cost was left blank, naming its line', async () => {
    const listed = /^ {2}(default,BTC,2,,GBP,\S+)$/m.exec(first.stdout)?.[1] as string;
    await writeFile(join(dir, 'blank.csv'), `account,asset,quantity,cost,currency,acquired_at\n${listed}\n`);
    const refused = await runCliHere(
      [
        'export',
        '--year',
        '2025',
        '--opening-lots',
        join(dir, 'blank.csv'),
        '--db',
        join(dir, 'w.duckdb'),
        '--out',
        join(dir, 'out'),
        '--format',
        'csv',
      ],
      { env },
    );
    expect([refused.status, refused.stderr.trim()]).toEqual([
      2,
      `ledgerpipe: --opening-lots ${join(dir, 'blank.csv')} line 2: the cost of 2 BTC is blank; fill in what the lot cost, in GBP`,
    ]);
  });
});
