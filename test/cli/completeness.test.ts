import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balancesAt, keyFrom, keyOf, units8, type Movement } from '../../src/sim/data/accounts.js';
import type { Dataset } from '../../src/sim/data/types.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/sim/server.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere, simEnv } from '../helpers/cli.js';
import { rows } from '../helpers/raw.js';

// Two months of one simulated account, read while the platform's clock says a day after them (docs/completeness.md).
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2025, 2, 1);
const NOW = TO + 86_400_000;
const RANGE = ['--from', '2025-01-01', '--to', '2025-03-01'];

let dir: string;
let sim: Simulator | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-complete-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The platform's clock: a day after the two months when the simulator starts. */
let platformNow: () => number = Date.now;

async function simulator(extra: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const offset = Date.now() - NOW;
  platformNow = () => Date.now() - offset;
  sim = await startSimulator({
    seed: 'complete',
    from: FROM,
    to: TO,
    records: 300,
    rateScale: 200,
    pendingMs: 0,
    clock: platformNow,
    ...extra,
  });
  return sim;
}

function cli(s: Simulator, ...args: string[]) {
  return runCliHere(
    [
      ...args,
      '--base-url',
      s.baseUrl,
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'out'),
      '--format',
      'csv',
      '--rate-scale',
      '200',
      '--quiet',
    ],
    { env: simEnv(s.credentials) },
  );
}

/**
 * The simulator's truth at `at`, per account type and asset (isolated pairs and bot accounts summed), as units of
 * 10^-8.
 */
function truthAt(dataset: Dataset, at: number): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [k, units] of balancesAt(dataset.account, at)) {
    const { accountType, asset } = keyFrom(k);
    out.set(`${accountType} ${asset}`, (out.get(`${accountType} ${asset}`) ?? 0n) + units);
  }
  return out;
}

describe('completeness against one consistent simulated account', () => {
  it(
    'finds nothing missing, pairs every transfer, and derives the holdings at both ends exactly as the account held them',
    { timeout: 120_000 },
    async () => {
      const s = await simulator();
      const yearEnd = await cli(s, 'run', 'year-end', ...RANGE);
      expect([yearEnd.status, yearEnd.stderr]).toEqual([0, '']);
      // The nightly reads on to the platform's present, so that a later snapshot can be rolled back to the range's end.
      const nightly = await cli(s, 'run', 'nightly');
      expect([nightly.status, nightly.stderr]).toEqual([0, '']);
      // Two runs, two snapshots: each account type's pair set against the ledger, and the headline says how many.
      expect(nightly.stdout).toMatch(
        /\n {2}the records agree with every running balance and every pair of snapshots: \d+ running-balance steps checked[^;\n]*; \d+ pairs? of consecutive balance snapshots set against the ledger\n/,
      );
      const pairs = Number(/; (\d+) pairs? of consecutive balance snapshots/.exec(nightly.stdout)?.[1]);
      const spans = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        // Each pair is a span of the reconciliation (an account type without an asset has no row there).
        const [compared] = await rows(
          spans,
          'SELECT count(DISTINCT (account_type, period_start)) AS n FROM reconciliation',
        );
        expect(Number(compared?.['n'])).toBeGreaterThan(3);
        expect(pairs).toBeGreaterThanOrEqual(Number(compared?.['n']));
      } finally {
        await spans.close();
      }
      expect(nightly.stdout).toContain('  every internal transfer has its counterpart\n');
      // An export of another range (February) asks for holdings at its own ends: made then, without a transform.
      const feb = await runCliHere([
        'export',
        '--from',
        '2025-02-01',
        '--to',
        '2025-03-01',
        '--db',
        join(dir, 'w.duckdb'),
        '--out',
        join(dir, 'feb'),
        '--format',
        'csv',
        '--quiet',
      ]);
      expect([feb.status, feb.stderr]).toEqual([0, '']);
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const february = await rows(
          warehouse,
          `SELECT account_type, asset, lp_decimal_text(quantity) AS quantity FROM holdings WHERE as_of = make_timestamptz(${Date.UTC(2025, 1, 1)}::BIGINT * 1000) AND quantity IS NOT NULL ORDER BY ALL`,
        );
        const feb1 = truthAt(s.dataset, Date.UTC(2025, 1, 1));
        expect(february.length).toBeGreaterThan(10);
        expect(february.map((h) => `${h['account_type']} ${h['asset']} ${units8(h['quantity'])}`)).toEqual(
          february.map(
            (h) => `${h['account_type']} ${h['asset']} ${feb1.get(`${h['account_type']} ${h['asset']}`) ?? 0n}`,
          ),
        );
        expect(await rows(warehouse, 'SELECT * FROM balance_breaks')).toEqual([]);
        // Candles are read up to the platform's present, as the records are: no hour after it, which this machine's
        // clock passed long ago, is asked for or recorded as missing.
        const candlesRead = await rows(
          warehouse,
          'SELECT epoch_ms(max(window_end)) AS read_to, count(*) FILTER (WHERE missing_hours IS NOT NULL) AS with_missing FROM price_coverage',
        );
        expect(Number(candlesRead[0]?.['read_to'])).toBeGreaterThan(TO);
        expect(Number(candlesRead[0]?.['read_to'])).toBeLessThanOrEqual(platformNow());
        expect(candlesRead[0]?.['with_missing']).toBe('0');
        expect(await rows(warehouse, 'SELECT * FROM unpaired_transfers')).toEqual([]);
        // Two snapshots: every account type with records explained by the ledger, earn by the transfers to and from it.
        const reconciled = await rows(
          warehouse,
          'SELECT DISTINCT account_type, explanation FROM reconciliation ORDER BY ALL',
        );
        expect(
          reconciled.filter(
            (r) =>
              !['the ledger explains the change', 'the transfers in and out explain the change'].includes(
                String(r['explanation']),
              ),
          ),
        ).toEqual([]);
        expect(reconciled.map((r) => r['account_type'])).toEqual(
          expect.arrayContaining([
            'spot',
            'margin_crossed',
            'margin_isolated',
            'usdt_futures',
            'coin_futures',
            'usdc_futures',
            'funding',
            'earn',
          ]),
        );
        for (const at of [FROM, TO]) {
          const truth = truthAt(s.dataset, at);
          const held = await rows(
            warehouse,
            `SELECT account_type, asset, lp_decimal_text(quantity) AS quantity, source FROM holdings WHERE as_of = make_timestamptz(${at}::BIGINT * 1000) ORDER BY ALL`,
          );
          const known = held.filter((h) => h['quantity'] !== null);
          // Earn and bots have no records: between snapshots they are not known; every other balance is.
          expect([...new Set(held.filter((h) => h['quantity'] === null).map((h) => h['account_type']))].sort()).toEqual(
            ['bots', 'earn'],
          );
          expect(known.map((h) => `${h['account_type']} ${h['asset']} ${units8(h['quantity'])}`)).toEqual(
            known.map(
              (h) => `${h['account_type']} ${h['asset']} ${truth.get(`${h['account_type']} ${h['asset']}`) ?? 0n}`,
            ),
          );
          // And every balance the account held then is there (one it never held, nor moved in the range, need not be).
          const held0 = new Set(known.map((h) => `${h['account_type']} ${h['asset']}`));
          expect(
            [...truth].filter(
              ([k, units]) => units !== 0n && !k.startsWith('earn ') && !k.startsWith('bots ') && !held0.has(k),
            ),
          ).toEqual([]);
          expect(new Set(known.map((h) => h['source']))).toEqual(new Set(['rolled back']));
        }
      } finally {
        await warehouse.close();
      }
    },
  );

  it(
    'with records dropped: one break at the record after each, the dropped movement its difference; exit 4, files written',
    { timeout: 120_000 },
    async () => {
      const s = await simulator({ dropRecords: 3, unavailable: ['bots'] });
      const run = await cli(s, 'run', 'year-end', ...RANGE);
      expect(run.status).toBe(4);
      expect(run.stderr).toMatch(
        /^ledgerpipe: 3 running-balance breaks: records missing or misread; see balance_breaks and reconciliation/,
      );
      await access(join(dir, 'out', 'ledger.csv'));
      // The simulator's own reading of each dropped record, and the record that follows it in its chain.
      const all = s.dataset.account.movements;
      const expected = s.dataset.dropped.map(({ stream, record }) => {
        const moved = all.find((m) => m.stream === stream && m.id === record.id) as Movement;
        const after = all.find(
          (m) =>
            m.stream === stream &&
            keyOf(m) === keyOf(moved) &&
            (m.ts > moved.ts || (m.ts === moved.ts && BigInt(m.id) > BigInt(moved.id))),
        ) as Movement;
        return `${stream} ${after.id} ${moved.units}`;
      });
      expect(expected).toHaveLength(3);
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const breaks = await rows(
          warehouse,
          'SELECT stream, source_id, lp_decimal_text(difference) AS difference FROM balance_breaks',
        );
        expect(breaks.map((b) => `${b['stream']} ${b['source_id']} ${units8(b['difference'])}`).sort()).toEqual(
          expected.sort(),
        );
        // The bots' endpoint refused this key: recorded as unavailable, one row, no balance.
        expect(
          await rows(warehouse, "SELECT asset, quantity, unavailable FROM asset_balances WHERE account_type = 'bots'"),
        ).toEqual([{ asset: null, quantity: null, unavailable: 'HTTP 400, code 40014 "Incorrect permissions"' }]);
      } finally {
        await warehouse.close();
      }
      expect(run.stdout).toContain(
        '  default bots: balances not readable with this key (HTTP 400, code 40014 "Incorrect permissions"); its holdings are not known\n',
      );
    },
  );

  it(
    "reconciles the snapshots of two nightlies on the platform's clock, this machine's the same",
    { timeout: 120_000 },
    async () => {
      // Data of the twenty days that end a day ago, served by a simulator on the real clock: a range that ends at this
      // machine's now (a nightly's) is read up to the platform's present, where its snapshot is taken. The nightlies
      // here are its extraction and transform (the nightly pipeline would also export the year so far, a gap).
      const end = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
      const s = await simulator({ from: end - 20 * 86_400_000, to: end, clock: Date.now });
      const day = (t: number) => new Date(t).toISOString().slice(0, 10);
      expect((await cli(s, 'run', 'year-end', '--from', day(end - 20 * 86_400_000), '--to', day(end))).status).toBe(0);
      const own = ['--base-url', s.baseUrl, '--db', join(dir, 'w.duckdb'), '--rate-scale', '200', '--quiet'];
      for (const _ of [1, 2]) {
        const extract = await runCliHere(
          ['extract', '--from', day(end - 3 * 86_400_000), '--to', new Date().toISOString(), ...own],
          { env: simEnv(s.credentials) },
        );
        expect([extract.status, extract.stderr]).toEqual([0, '']);
        const transform = await runCliHere(['transform', ...own], { env: simEnv(s.credentials) });
        expect([transform.status, transform.stderr]).toEqual([0, '']);
      }
      const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
      try {
        const compared = await rows(
          warehouse,
          "SELECT DISTINCT explanation FROM reconciliation WHERE account_type NOT IN ('earn', 'bots') ORDER BY ALL",
        );
        expect(compared).toEqual([{ explanation: 'the ledger explains the change' }]);
        expect(await rows(warehouse, 'SELECT count(DISTINCT period_start) AS spans FROM reconciliation')).toEqual([
          { spans: '2' },
        ]);
      } finally {
        await warehouse.close();
      }
    },
  );
});
