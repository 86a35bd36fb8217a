import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancesAt, keyFrom, units8 } from '../../src/sim/data/accounts.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { queryCsv, runCliHere, simEnv, type CliResult } from '../helpers/cli.js';

// The retail account (docs/simulator.md), opened years before its year: what `ledgerpipe demo` runs.
const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

let dir: string;
let sims: Simulator[] = [];
let yearEnd: CliResult;

const own = (sim: Simulator, db: string) => [
  '--base-url',
  sim.baseUrl,
  '--db',
  join(dir, db),
  '--out',
  join(dir, `${db}-out`),
  '--format',
  'csv',
  '--rate-scale',
  '1000',
];
const query = async (db: string, sql: string) => (await queryCsv(join(dir, db), sql)).trimEnd().split('\n').slice(1);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-retail-'));
  const sim = await startSimulator({ dataset: 'retail', from: FROM, to: TO, rateScale: 1000, pendingMs: 0 });
  sims.push(sim);
  yearEnd = await runCliHere(
    ['run', 'year-end', '--year', '2025', '--fiat', 'EUR', '--quiet', ...own(sim, 'w.duckdb')],
    { env: simEnv(sim.credentials) },
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
  await rm(dir, { recursive: true, force: true });
});

describe('the retail account, its history read back to its registration', () => {
  it('gives every disposal of its year an acquisition, with no balance break and no unpaired transfer', async () => {
    expect([yearEnd.status, yearEnd.stderr]).toEqual([0, '']);
    expect(yearEnd.stdout).toContain('  every internal transfer has its counterpart\n');
    // One run, one snapshot: nothing to set it against yet, and the headline says so.
    expect(yearEnd.stdout).toMatch(
      / {2}the records agree with every running balance: \d+ running-balance steps checked[^;\n]*; only one balance snapshot was read, so none was set against the ledger: a later run takes a second\n/,
    );
    // The year-end read the streams that carry lots back to the registration (docs/history.md), and nothing else.
    const opened = sims[0]!.dataset.openedAt;
    expect(
      await query(
        'w.duckdb',
        'SELECT stream, epoch_ms(min(window_start)) FROM coverage GROUP BY stream ORDER BY stream',
      ),
    ).toEqual([
      `deposits,${opened}`,
      `futures_fills,${FROM}`,
      `futures_tax_records,${FROM}`,
      `margin_records,${opened}`,
      `p2p_advertisements,${FROM}`,
      `p2p_tax_records,${opened}`,
      `spot_tax_records,${opened}`,
      `withdrawals,${opened}`,
    ]);
    expect(
      await query(
        'w.duckdb',
        "SELECT count(*) FILTER (WHERE disposed_at >= '2025-01-01' AND match_rule LIKE '%unmatched'), count(*) FILTER (WHERE match_rule LIKE '%unmatched'), count(*) FILTER (WHERE disposed_at >= '2025-01-01') FROM disposals",
      ),
    ).toEqual(['0,0,1847']);
    expect(
      await query(
        'w.duckdb',
        'SELECT (SELECT count(*) FROM balance_breaks), (SELECT count(*) FROM unpaired_transfers)',
      ),
    ).toEqual(['0,0']);
  });

  it('with a depth set on the simulator, records where it stops, lists the lots held there, and takes them filled in', async () => {
    // The platform answers nothing older than 800 days (--history-depth-days): part way through the history.
    const sim = await startSimulator({
      dataset: 'retail',
      from: FROM,
      to: TO,
      rateScale: 1000,
      pendingMs: 0,
      historyDepthDays: 800,
    });
    sims.push(sim);
    const env = simEnv(sim.credentials);
    const cut = await runCliHere(['run', 'year-end', '--year', '2025', '--fiat', 'EUR', ...own(sim, 'cut.duckdb')], {
      env,
    });
    expect(cut.status, cut.stderr).toBe(4);
    const reach = Number(
      (
        await query(
          'cut.duckdb',
          "SELECT epoch_ms(max(earliest_reachable)) FROM coverage WHERE stream = 'spot_tax_records'",
        )
      )[0],
    );
    const boundary = Date.now() - 800 * DAY;
    // Found to a day: at or after the boundary (the clock moved on a little since the run), within a day of it.
    expect(reach > boundary - 60_000 && reach < boundary + DAY).toBe(true);
    // The lots listed are what the account held there in spot and margin, as the simulator's own truth says.
    const listed = [...cut.stdout.matchAll(/^ {2}(default,([A-Z]+),([\d.]+),,EUR,(\S+))$/gm)].map((m) => ({
      line: m[1]!,
      asset: m[2]!,
      quantity: m[3]!,
      at: Date.parse(m[4]!),
    }));
    expect(listed.length).toBeGreaterThan(0);
    const truth = new Map<string, bigint>();
    for (const [key, units] of balancesAt(sim.dataset.account, listed[0]!.at)) {
      const { accountType, asset } = keyFrom(key);
      if (accountType === 'spot' || accountType.startsWith('margin_'))
        truth.set(asset, (truth.get(asset) ?? 0n) + units);
    }
    const held = [...truth]
      .filter(([asset, units]) => units > 0n && asset !== 'EUR')
      .map(([asset, units]) => [asset, units] as const)
      .sort();
    expect(listed.map((l) => [l.asset, units8(l.quantity)]).sort()).toEqual(held);
    // Filled in (any cost will do here: the case worked by hand is test/pipeline/history.test.ts), they are taken.
    await writeFile(
      join(dir, 'lots.csv'),
      `account,asset,quantity,cost,currency,acquired_at\n${listed.map((l) => l.line.replace(',,EUR,', ',1000,EUR,')).join('\n')}\n`,
    );
    const filled = await runCliHere(
      [
        'export',
        '--year',
        '2025',
        '--opening-lots',
        join(dir, 'lots.csv'),
        '--db',
        join(dir, 'cut.duckdb'),
        '--out',
        join(dir, 'cut.duckdb-out'),
        '--format',
        'csv',
        '--quiet',
      ],
      { env },
    );
    expect([filled.status, filled.stderr]).toEqual([0, '']);
    expect(
      await query(
        'cut.duckdb',
        "SELECT count(*) FILTER (WHERE match_rule LIKE '%unmatched') FROM disposals WHERE disposed_at >= '2025-01-01'",
      ),
    ).toEqual(['0']);
  });
});
