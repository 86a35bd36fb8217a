import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { runNodeProcess, type CliResult } from '../helpers/cli.js';

/**
 * A stream is two files (docs/adding-a-stream.md): this test adds one, `throwaway_records`, to a copy of ledgerpipe,
 * as a person would: its definition (src/streams/throwaway-records.ts) and its SQL (sql/models/
 * throwaway_records.sql), nothing else by hand. `npm run generate` lists it, types it and documents it; the copy's
 * CLI then reads it from an endpoint of this test's own, types it into the warehouse as it loads and books it.
 */

const STREAM_FILE = `import { z } from 'zod';
import { decimalString, idString, msString, optionalText } from './fields.js';
import { accountColumn, amount, text, tsColumn } from './table.js';
import { field } from './source.js';
import { defineStream, flatArrayPage } from './stream.js';

/** GET /api/v2/test/throwaway-records: a stream made up by test/streams/new-stream.test.ts. */
export const throwawayRecords = defineStream({
  kind: 'paged',
  name: 'throwaway_records',
  path: '/api/v2/test/throwaway-records',
  partitions: [{ name: '', params: {}, accountType: 'spot' }],
  maxWindowDays: 30,
  pageLimit: 2,
  ratePerSecond: 10,
  keyField: 'id',
  readPage: flatArrayPage('id'),
  table: {
    name: 'throwaway_records',
    kind: 'view',
    description: 'Throwaway records (GET /api/v2/test/throwaway-records), one row per record (sql/models/throwaway_records.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'id',
    ledger: 'paired',
    columns: [
      accountColumn,
      text('id', "The record's id (\`id\`).", field('id', idString)),
      text('coin', 'The coin (\`coin\`), upper-cased.', field('coin', z.string(), { upper: true })),
      amount('amount', 'The amount (\`amount\`), as written.', field('amount', decimalString)),
      text('note', 'A note (\`note\`); NULL when empty.', field('note', optionalText, { emptyAsNull: true })),
      tsColumn('ts', msString),
    ],
  },
});
`;

const STREAM_SQL = `-- throwaway_records: GET /api/v2/test/throwaway-records (src/streams/throwaway-records.ts holds its columns).
-- creates: lp_legs_throwaway_records
-- reads: typed_throwaway_records
-- params: -

-- The ledger's legs: each record's amount, in the spot account.
CREATE OR REPLACE MACRO lp_legs_throwaway_records() AS TABLE
SELECT account, 'throwaway_records' AS source, id AS source_id, 'main' AS leg, ts, 'amount' AS field, '*' AS type,
  'amount' AS main_field, '*' AS main_type, coin AS asset, amount AS written, NULL AS default_direction,
  NULL AS symbol, id AS reference, coalesce(note, '') AS note, '' AS pair_scope, '' AS pair_key, 'spot' AS account_type
FROM typed_throwaway_records;
`;

const T = Date.UTC(2025, 2, 3);
/** The endpoint's records, newest first, as the platform writes them; one fails its check and is quarantined. */
const RECORDS = [
  { id: '5', coin: 'usdt', amount: 'lots', note: '', ts: String(T + 5000) },
  { id: '4', coin: 'btc', amount: '-0.5', note: '', ts: String(T + 4000) },
  { id: '3', coin: 'usdt', amount: '12.25', note: 'third', ts: String(T + 3000), extra: true },
  { id: '2', coin: 'usdt', amount: '1', note: 'second', ts: String(T + 2000) },
  { id: '1', coin: 'btc', amount: '0.5', note: 'first', ts: String(T + 1000) },
];

let copy: string;
let server: Server;
let generated: CliResult;
const asked: string[] = [];

/** The test's platform: the throwaway endpoint (windows, idLessThan, limit), the clock, and 404 for the rest. */
async function startEndpoint(): Promise<string> {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    asked.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/v2/public/time')
      return send(200, {
        code: '00000',
        msg: 'success',
        requestTime: Date.now(),
        data: { serverTime: String(Date.now()) },
      });
    if (url.pathname !== '/api/v2/test/throwaway-records')
      return send(404, { code: '40404', msg: 'Request URL NOT FOUND', requestTime: Date.now(), data: null });
    const q = url.searchParams;
    const [start, end, below, limit] = [
      Number(q.get('startTime')),
      Number(q.get('endTime')),
      q.get('idLessThan'),
      Number(q.get('limit') ?? 2),
    ];
    const page = RECORDS.filter(
      (r) => Number(r.ts) >= start && Number(r.ts) <= end && (below === null || Number(r.id) < Number(below)),
    ).slice(0, limit);
    return send(200, { code: '00000', msg: 'success', requestTime: Date.now(), data: page });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The copy's CLI, with the test's account. */
async function cli(args: readonly string[], baseUrl: string): Promise<CliResult> {
  const config = join(copy, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      accounts: [{ name: 'main', baseUrl, env: { key: 'TW_KEY', secret: 'TW_SECRET', passphrase: 'TW_PASS' } }],
    }),
  );
  const env = { ...process.env, TW_KEY: 'key', TW_SECRET: 'secret', TW_PASS: 'pass' };
  return runNodeProcess(
    [join(copy, 'dist', 'ledgerpipe.js'), ...args, '--config', config, '--db', join(copy, 'w.duckdb')],
    { env, cwd: copy },
  );
}

beforeAll(async () => {
  const root = packageRoot();
  copy = await mkdtemp(join(tmpdir(), 'lp-new-stream-'));
  for (const part of ['src', 'sql', 'scripts', 'pipelines', 'docs', 'package.json', 'ARCHITECTURE.md'])
    await cp(join(root, part), join(copy, part), { recursive: true });
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // The copy builds what the package ships, not the tests and the bench.
  const tsconfig = JSON.parse(await readFile(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] };
  await writeFile(
    join(copy, 'tsconfig.json'),
    JSON.stringify({ ...tsconfig, include: ['src/**/*.ts', 'pipelines/**/*.ts', 'scripts/**/*.ts'] }),
  );
  // The two files.
  await writeFile(join(copy, 'src', 'streams', 'throwaway-records.ts'), STREAM_FILE);
  await writeFile(join(copy, 'sql', 'models', 'throwaway_records.sql'), STREAM_SQL);
  const run = spawnSync('npm', ['run', 'generate', '--silent'], { cwd: copy, encoding: 'utf8' });
  generated = { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr };
}, 300_000);
afterAll(async () => {
  server?.close();
  await rm(copy, { recursive: true, force: true });
});

describe('a stream added in two files', () => {
  it('is listed, typed and documented by npm run generate', async () => {
    expect(generated.status, generated.stderr).toBe(0);
    expect(await readFile(join(copy, 'src', 'streams', 'index.ts'), 'utf8')).toMatch(
      / {2}leadTraderProfits,\n {2}throwawayRecords,\n {2}accountBalances,/,
    );
    const typing = await readFile(join(copy, 'sql', 'generated', 'typing.sql'), 'utf8');
    expect(typing).toContain('CREATE OR REPLACE MACRO lp_type_throwaway_records(src) AS TABLE');
    expect(typing).toMatch(
      /upper\(r\.coin\)\s+AS coin,\n\s+lp_amount\(r\.amount\)\s+AS amount,\n\s+nullif\(r\.note, ''\)\s+AS note,/,
    );
    expect(await readFile(join(copy, 'sql', 'generated', 'models.sql'), 'utf8')).toContain(
      'UNION ALL SELECT * FROM lp_legs_throwaway_records()',
    );
    const tables = await readFile(join(copy, 'docs', 'tables.md'), 'utf8');
    expect(tables).toContain('## throwaway_records\n\nView. Throwaway records (GET /api/v2/test/throwaway-records)');
    expect(tables).toContain('| `note` | VARCHAR | A note (`note`); NULL when empty. |');
    expect(await readFile(join(copy, 'docs', 'extraction.md'), 'utf8')).toContain(
      '| `throwaway_records` | `/api/v2/test/throwaway-records` |  | 30 days | 2 | 10/s | `idLessThan` (a record id) | classic |',
    );
    // Its SQL takes its place in the graph of sql/, after the typing it reads.
    expect(await readFile(join(copy, 'ARCHITECTURE.md'), 'utf8')).toMatch(
      /\d+\. `models\/throwaway_records\.sql`: lp_legs_throwaway_records\n/,
    );
  });

  it('is read from its endpoint page by page, checked, typed as it loads and booked', async () => {
    const baseUrl = await startEndpoint();
    const range = ['--from', '2025-03-01', '--to', '2025-03-05'];
    const extracted = await cli(['extract', ...range, '--streams', 'throwaway_records', '--quiet'], baseUrl);
    // One record failed its check: set aside, and the run says so (exit 4).
    expect(extracted.status, extracted.stderr).toBe(4);
    expect(extracted.stderr).toContain(
      'set aside in the quarantine table, each with its reason (throwaway_records: 1)',
    );
    // Pages of two, each asked below the last id of the one before.
    expect(
      asked
        .filter((a) => a.startsWith('/api/v2/test/throwaway-records'))
        .map((a) => new URL(a, 'http://x').searchParams.get('idLessThan')),
    ).toEqual([null, '4', '2']);
    const transformed = await cli(['transform', ...range, '--quiet'], baseUrl);
    expect(transformed.status, transformed.stderr).toBe(0);
    const query = async (sql: string): Promise<string> => {
      const answer = await runNodeProcess(
        [join(copy, 'dist', 'ledgerpipe.js'), 'query', '--format', 'csv', '--db', join(copy, 'w.duckdb'), sql],
        { cwd: copy },
      );
      expect(answer.status, answer.stderr).toBe(0);
      return answer.stdout;
    };
    expect(await query('SELECT id, coin, amount, note, ts FROM throwaway_records ORDER BY id')).toBe(
      [
        'id,coin,amount,note,ts',
        '1,BTC,0.5,first,2025-03-03 00:00:01+00',
        '2,USDT,1,second,2025-03-03 00:00:02+00',
        '3,USDT,12.25,third,2025-03-03 00:00:03+00',
        '4,BTC,-0.5,,2025-03-03 00:00:04+00',
        '',
      ].join('\n'),
    );
    // Typed as it loaded: the typed table holds every loaded record, with its raw key.
    expect(await query("SELECT count(*) AS typed FROM typed_throwaway_records WHERE key IN ('1', '2', '3', '4')")).toBe(
      'typed\n4\n',
    );
    // The record whose amount is no decimal was quarantined with its check's message; the unknown field reported.
    expect(await query("SELECT key, error FROM quarantine WHERE stream = 'throwaway_records'")).toBe(
      'key,error\n5,amount: not a plain decimal string\n',
    );
    expect(await query("SELECT field, kind FROM schema_drift WHERE stream = 'throwaway_records'")).toBe(
      'field,kind\nextra,unknown\n',
    );
    expect(
      await query("SELECT source_id, asset, amount FROM ledger WHERE source = 'throwaway_records' ORDER BY source_id"),
    ).toBe('source_id,asset,amount\n1,BTC,0.5\n2,USDT,1\n3,USDT,12.25\n4,BTC,-0.5\n');
  });
});
