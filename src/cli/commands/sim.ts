import type { InferredOptionTypes, Options } from 'yargs';
import { UsageError } from '../../errors/usage-error.js';
import { parseInstant } from '../../time/instant.js';
import { defineCommand } from '../command.js';
import type { CliIo } from '../io.js';

/** `[last year's 1 January, this year's 1 January)` in UTC: the default range of the simulator and the demo. */
export function lastFullYear(now: number): { from: number; to: number } {
  const year = new Date(now).getUTCFullYear() - 1;
  return { from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1) };
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new UsageError(message);
}

/** The flags of `ledgerpipe sim` (docs/simulator.md). */
const SIM_OPTIONS = {
  port: { type: 'number', default: 0, describe: 'Port to listen on; 0 picks a free one' },
  host: { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' },
  seed: {
    type: 'string',
    describe:
      'Seed of a stress data set (default 1 with --records); without --seed and --records, the believable retail account',
  },
  from: { type: 'string', describe: 'Start of the data range (ISO date, UTC); default: 1 January last year' },
  to: { type: 'string', describe: 'End of the data range, exclusive; default: 1 January this year' },
  records: {
    type: 'number',
    describe:
      'Serve a stress data set of this many futures fills in the range (default 2000 with --seed); other streams scale with it',
  },
  'rate-scale': { type: 'number', default: 1, describe: 'Multiplies every rate limit' },
  faults: {
    type: 'number',
    default: 0,
    describe: 'Share of requests that fail (0..1): 5xx, reset, truncated body, stall',
  },
  truth: { type: 'string', describe: 'Write every generated record to this JSON file before serving' },
  'margin-window-days': { type: 'number', default: 366, describe: 'Widest margin-record window; the live docs say 30' },
  'pending-seconds': {
    type: 'number',
    default: 120,
    describe: 'How long last-day withdrawals stay pending after start',
  },
  'stall-ms': {
    type: 'number',
    default: 30_000,
    describe: 'How long a stalled request hangs before its connection drops',
  },
  accounts: {
    type: 'number',
    default: 1,
    describe: 'Accounts to serve, each with its own key and data (listed in the first line)',
  },
  'drop-records': {
    type: 'number',
    default: 0,
    describe:
      'Leave this many records out of the answers while the balances still count them (a platform that lost them): each shows as a balance break',
  },
  front: {
    type: 'boolean',
    default: false,
    describe:
      'Count rate limits when requests arrive at a front door of their own (a thread), not when the simulator gets to them: for many accounts, whose large data makes its pauses long',
  },
  'ip-limit': {
    type: 'number',
    default: 6000,
    describe:
      'Requests a minute per IP address over every key (scaled by --rate-scale); over it, the address is blocked 5 minutes',
  },
  'account-mode': {
    choices: ['classic', 'uta'] as const,
    default: 'classic' as const,
    describe:
      'The kind of account: classic (v2 endpoints), or uta, a unified trading account (v3 endpoints; docs/unified-accounts.md); uta with the retail account only',
  },
  'history-depth-days': {
    type: 'number',
    describe:
      'Refuse record windows that start more than this many days before now (43111), as the live service did for old spot fills; default: no limit',
  },
} as const satisfies Record<string, Options>;

type SimArgs = InferredOptionTypes<typeof SIM_OPTIONS>;

/** `ledgerpipe sim`: the local simulator of the platform (docs/simulator.md). */
export function simCommand(io: CliIo) {
  return defineCommand({
    command: 'sim',
    describe: 'Start the local simulator of the platform (no account needed)',
    builder: (yargs) =>
      yargs
        .options(SIM_OPTIONS)
        .example(
          'ledgerpipe sim --truth truth.json',
          'Serve a believable account (last year and its history back to its registration) and write what it serves',
        )
        .example('ledgerpipe sim --seed 7 --truth truth.json', 'Serve the stress data set of seed 7 for last year')
        .example('ledgerpipe sim --rate-scale 1000 --records 1000000', 'A big, fast simulator for benchmarks')
        .example(
          'ledgerpipe sim --accounts 40 --truth truth.json',
          'Forty accounts behind one address, as a firm has them',
        )
        .example(
          'ledgerpipe sim --account-mode uta --truth truth.json',
          'A unified trading account, served on the v3 endpoints',
        ),
    handler: async (args) => serveSimulator(args, checkSimArgs(args), io),
  });
}

/** Checks every flag of `ledgerpipe sim`; returns the data range of --from and --to (default last year). */
function checkSimArgs(args: SimArgs): { from: number; to: number } {
  const defaults = lastFullYear(Date.now());
  const from = args.from === undefined ? defaults.from : parseInstant(args.from, 'UTC', '--from');
  const to = args.to === undefined ? defaults.to : parseInstant(args.to, 'UTC', '--to');
  check(from < to, '--from must be before --to');
  check(
    Number.isInteger(args.port) && args.port >= 0 && args.port <= 65_535,
    '--port must be a whole number from 0 to 65535',
  );
  check(
    args.records === undefined || (Number.isInteger(args.records) && args.records >= 0 && args.records <= 20_000_000),
    '--records must be a whole number from 0 to 20000000',
  );
  const depth = args['history-depth-days'];
  check(
    depth === undefined || (Number.isInteger(depth) && depth >= 1),
    '--history-depth-days must be a whole number of days, such as 730',
  );
  check(args['rate-scale'] > 0, '--rate-scale must be a positive number such as 1 or 1000');
  check(args.faults >= 0 && args.faults <= 1, '--faults must be a share between 0 and 1, such as 0.1');
  const windowDays = args['margin-window-days'];
  check(
    Number.isInteger(windowDays) && windowDays >= 1 && windowDays <= 366,
    '--margin-window-days must be a whole number from 1 to 366',
  );
  check(args['pending-seconds'] >= 0, '--pending-seconds must not be negative');
  check(args['stall-ms'] >= 0, '--stall-ms must not be negative');
  check(
    Number.isInteger(args.accounts) && args.accounts >= 1 && args.accounts <= 10_000,
    '--accounts must be a whole number from 1 to 10000',
  );
  check(
    Number.isInteger(args['drop-records']) && args['drop-records'] >= 0,
    '--drop-records must be a whole number of records, such as 3',
  );
  check(args['ip-limit'] > 0, '--ip-limit must be a positive number of requests a minute, such as 6000');
  check(
    args['account-mode'] === 'classic' || (args.seed === undefined && args.records === undefined),
    '--account-mode uta serves the retail account only: leave out --seed and --records',
  );
  return { from, to };
}

/**
 * Serves until a signal: writes --truth first, then one line on stdout with the address and every account's
 * credentials, and on the way out the requests it answered.
 */
async function serveSimulator(args: SimArgs, range: { from: number; to: number }, io: CliIo): Promise<void> {
  const [{ startSimulator }, { writeTruth, writeAccountsTruth }] = await Promise.all([
    import('../../sim/server.js'),
    import('../../sim/data/dataset.js'),
  ]);
  // Neither --seed nor --records: the believable retail account; either: the stress data sets (docs/simulator.md).
  const stress = args.seed !== undefined || args.records !== undefined;
  const sim = await startSimulator({
    dataset: stress ? 'stress' : 'retail',
    accountMode: args['account-mode'],
    ...(stress ? { seed: args.seed ?? '1', records: args.records ?? 2000 } : {}),
    ...(args['history-depth-days'] === undefined ? {} : { historyDepthDays: args['history-depth-days'] }),
    from: range.from,
    to: range.to,
    rateScale: args['rate-scale'],
    faults: args.faults,
    marginWindowDays: args['margin-window-days'],
    pendingMs: args['pending-seconds'] * 1000,
    stallMs: args['stall-ms'],
    accounts: args.accounts,
    ipLimitPerMinute: args['ip-limit'],
    dropRecords: args['drop-records'],
    front: args.front,
    host: args.host,
    port: args.port,
    log: io.log,
  });
  if (args.truth !== undefined) {
    if (sim.accounts.length === 1) await writeTruth(sim.dataset, args.truth);
    else
      await writeAccountsTruth(
        sim.accounts.map((a) => ({ name: a.name, apiKey: a.credentials.apiKey, dataset: a.dataset })),
        args.truth,
      );
  }
  const opened = new Date(sim.dataset.openedAt).toISOString();
  const unified = args['account-mode'] === 'uta';
  io.log(
    stress
      ? `sim: the stress data set of seed ${args.seed ?? '1'}, opened ${opened}`
      : unified
        ? `sim: a unified trading account, opened ${opened}: served on the v3 endpoints, its key refused on the classic ones (40085)`
        : `sim: the retail account, registered ${opened}; its history streams reach back to then`,
  );
  // The first account's credentials at the top, as before; every account's in `accounts`.
  const accounts = sim.accounts.map((a) => ({ name: a.name, ...a.credentials }));
  io.out(JSON.stringify({ baseUrl: sim.baseUrl, ...sim.credentials, accounts }));
  await io.untilSignal();
  await sim.close();
  io.log(
    `sim: stopped after ${sim.stats.requests} requests; by status ${JSON.stringify(sim.stats.byStatus)}; IP cap breaches ${sim.stats.ipBreaches}`,
  );
}
