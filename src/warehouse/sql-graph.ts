import type { DuckDBConnection, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TYPED_AT_LOAD } from '../tables/index.js';
import { BIGINT, DuckDBTimestampTZValue, LIST, listValue, TIMESTAMPTZ, VARCHAR } from '../duckdb/duckdb.js';
import { timestampTz } from '../duckdb/time-values.js';
import { packageRoot } from '../util/package-root.js';

/**
 * The model graph (docs/transform.md, "The model graph"; dbt's `ref()` is the model): every file of `sql/` says in
 * its header what it creates, what it reads of what other files create, and which parameters it takes
 *
 *     -- creates: ledger
 *     -- reads: lp_paired_legs, lp_alone_legs, type_catalog
 *     -- params: -
 *
 * and this module reads the headers, orders the files by them, binds the parameters by name (the one place
 * ledgerpipe sets DuckDB variables, and puts them back) and gives each file's results by name. The stages ask it
 * for the files they need; nothing else reads or runs a file of `sql/`.
 */

/** What a file says of itself: the names it creates, those of other files it reads, the variables it reads. */
export interface Declaration {
  creates: readonly string[];
  reads: readonly string[];
  params: readonly string[];
}

/** A file of `sql/`, by its path there (`ledger/10_ledger.sql`), with its text and header. */
export interface SqlFile extends Declaration {
  name: string;
  text: string;
  /**
   * The name of each statement's result, by the statement's place (undefined: not named): a line
   * `-- result: deleted` just before a statement names what it reports (rows it wrote, or the number it selects).
   */
  results: readonly (string | undefined)[];
}

/** The header's three lines, in this order, each a comma-separated list of bare names or `-` for none. */
const HEADER = ['creates', 'reads', 'params'] as const;
const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * The header lines of a declaration, as a file (or a generated one) writes them after its prose.
 *
 * @example
 * headerLines({ creates: ['ledger'], reads: ['type_catalog'], params: [] }); // '-- creates: ledger\n-- reads: type_catalog\n-- params: -'
 */
export function headerLines(d: Declaration): string {
  return HEADER.map((key) => `-- ${key}: ${d[key].length === 0 ? '-' : d[key].join(', ')}`).join('\n');
}

/**
 * Reads a file's header: its three lines in its leading comment block. A file without them, or with a name that is
 * not plain, is refused with one line that says which.
 *
 * @example
 * parseHeader('ledger/30_unreviewed_types.sql', text); // { creates: ['unreviewed_types'], reads: ['ledger', ...], params: [] }
 */
export function parseHeader(name: string, text: string): Declaration {
  const lines = text.split('\n');
  const end = lines.findIndex((l) => !l.startsWith('--'));
  const leading = end < 0 ? lines : lines.slice(0, end);
  const at = leading.findIndex((l) => l.startsWith(`-- ${HEADER[0]}:`));
  const found = HEADER.map((key, i) => {
    const line = leading[at + i];
    if (at < 0 || line === undefined || !line.startsWith(`-- ${key}:`))
      throw new Error(
        `sql/${name} has no header line "-- ${key}: ..." in its leading comments (docs/transform.md, "The model graph")`,
      );
    const list = line.slice(`-- ${key}:`.length).trim();
    const names = list === '-' ? [] : list.split(',').map((n) => n.trim());
    const bad = names.find((n) => !NAME.test(n));
    if (bad !== undefined)
      throw new Error(`sql/${name} declares "${bad}" in its ${key}: a bare lower-case name, or - for none`);
    return names;
  });
  return { creates: found[0] ?? [], reads: found[1] ?? [], params: found[2] ?? [] };
}

/**
 * The results a file names (`-- result: <name>` before a statement), by the statement's place: statements end at a
 * `;` outside strings and comments, as in every file of `sql/` (test/warehouse/sql-graph.test.ts compares the
 * count with DuckDB's own).
 *
 * @example
 * namedResults('DELETE FROM t;\n-- result: later\nSELECT count(*) FROM t;'); // [undefined, 'later']
 */
export function namedResults(text: string): (string | undefined)[] {
  const results: (string | undefined)[] = [];
  let statement = 0;
  let pending: string | undefined;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('--', i)) {
      const end = text.indexOf('\n', i);
      const marker = /^-- result: ([a-z_][a-z0-9_]*)\s*$/.exec(text.slice(i, end < 0 ? text.length : end));
      if (marker !== null) pending = marker[1];
      i = end < 0 ? text.length : end;
    } else if (text[i] === "'") {
      i = text.indexOf("'", i + 1);
      while (text[i + 1] === "'") i = text.indexOf("'", i + 2);
    } else if (text[i] === ';') {
      results[statement++] = pending;
      pending = undefined;
    }
  }
  return results;
}

/**
 * The names made by ledgerpipe's code, not by a file of `sql/`, which files may read: the typed tables (from the
 * registry of tables, src/warehouse/registry-sql.ts, as a warehouse opens) and what the valuation makes
 * (src/warehouse/values.ts: DuckDB names a column only from a statement's text, and reads a time zone fast only as
 * a constant of one). Each with the module that makes it.
 */
export const MADE_IN_CODE: ReadonlyMap<string, string> = new Map([
  ...TYPED_AT_LOAD.map((m) => [`typed_${m.name}`, 'src/warehouse/registry-sql.ts'] as const),
  ...['lp_valuation_fiat', 'lp_valuation_time_zone', 'ledger_valued', 'year_summary', 'holdings'].map(
    (n) => [n, 'src/warehouse/values.ts'] as const,
  ),
]);

/** The folder of the migrations, which keep their numbered order (migrations.ts). */
const MIGRATIONS = 'warehouse/';

/**
 * The folders of `sql/` in the order of the stages that run them (ARCHITECTURE.md, "The stages"): between files
 * free to go, a folder's before the next's, so that the graph's order reads as the pipeline does. A folder not
 * listed here is refused.
 */
const FOLDERS = [
  'load',
  'warehouse',
  'macros',
  'seeds',
  'models',
  'generated',
  'prices',
  'ledger',
  'checks',
  'completeness',
  'incremental',
  'values',
  'gains',
  'gains-tables',
  'gains-kept',
  'exports',
  'report',
  'reads',
  'books',
];

/**
 * The files in the order they may run: each after the files that create what it reads. Migrations keep their
 * numbered order, and read what earlier releases made when it is there without waiting for it. A file that creates a
 * name it also reads (sql/generated/delta_models.sql copies the typed tables into lp_delta) makes a copy, which the
 * other readers of the name do not wait for. Between files free to go, the stages' order (FOLDERS), then name
 * order. A name no file and no code creates, or files that wait for each other, are refused (at build time:
 * `npm run generate`, and test/warehouse/sql-graph.test.ts).
 *
 * @example
 * orderFiles(files).map((f) => f.name); // ['load/price_staging.sql', ..., 'warehouse/001_bookkeeping.sql', ...]
 */
export function orderFiles(files: readonly SqlFile[]): SqlFile[] {
  const stray = files.find((f) => !FOLDERS.includes(f.name.slice(0, f.name.indexOf('/'))));
  if (stray !== undefined)
    throw new Error(
      `sql/${stray.name} is in no folder the graph knows: add its folder to FOLDERS (src/warehouse/sql-graph.ts)`,
    );
  const creators = new Map<string, SqlFile[]>();
  for (const f of files) for (const n of f.creates) creators.set(n, [...(creators.get(n) ?? []), f]);
  const after = new Map<SqlFile, Set<SqlFile>>(files.map((f) => [f, new Set()]));
  const migrations = files.filter((f) => f.name.startsWith(MIGRATIONS)).sort((a, b) => a.name.localeCompare(b.name));
  for (const f of files) {
    const waits = after.get(f) as Set<SqlFile>;
    const migration = f.name.startsWith(MIGRATIONS);
    for (const n of f.reads) {
      const by = creators.get(n);
      if (by === undefined && !MADE_IN_CODE.has(n))
        throw new Error(`sql/${f.name} reads ${n}, which no file of sql/ and no code creates`);
      // A migration reads what an earlier release made, when it is there (013_plain_names.sql renames columns of
      // disposals): it waits for the migrations before it alone.
      if (migration) continue;
      for (const c of by ?? []) if (c !== f && !(c.reads.includes(n) && c.creates.includes(n))) waits.add(c);
    }
    const i = migrations.indexOf(f);
    if (i > 0) waits.add(migrations[i - 1] as SqlFile);
  }
  // Kahn's: how many files each still waits for, and who waits for each.
  const waiting = new Map<SqlFile, number>([...after].map(([f, w]) => [f, w.size]));
  const waiters = new Map<SqlFile, SqlFile[]>(files.map((f) => [f, []]));
  for (const [f, w] of after) for (const c of w) waiters.get(c)?.push(f);
  const rank = (f: SqlFile): number => FOLDERS.indexOf(f.name.slice(0, f.name.indexOf('/')));
  const left = [...files].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  const ordered: SqlFile[] = [];
  while (left.length > 0) {
    const i = left.findIndex((f) => waiting.get(f) === 0);
    if (i < 0)
      throw new Error(
        `these files of sql/ wait for each other, through what their headers read: ${left.map((f) => f.name).join(', ')}`,
      );
    const [next] = left.splice(i, 1) as [SqlFile];
    ordered.push(next);
    for (const w of waiters.get(next) ?? []) waiting.set(w, (waiting.get(w) ?? 0) - 1);
  }
  return ordered;
}

/**
 * Every file of `sql/` (the folders under it, recursively), in name order, with its header read. Read at once, in
 * one turn of the event loop: every process that opens a warehouse reads the graph first, and its 120 files took
 * 11 ms read so against 25 ms read side by side through the thread pool (2026-11-29, on a loaded 2-core machine).
 */
function readAll(): SqlFile[] {
  const root = join(packageRoot(), 'sql');
  const names = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.sql'))
    .map((n) => n.split('\\').join('/'))
    .sort();
  return names.map((name) => {
    const text = readFileSync(join(root, name), 'utf8');
    // Few files name a result: the others are not scanned.
    return { name, text, ...parseHeader(name, text), results: text.includes('-- result:') ? namedResults(text) : [] };
  });
}

/** The graph of this release's files, in the order they may run. */
export interface SqlGraph {
  files: readonly SqlFile[];
  /** One file by its path under `sql/`; a name that is not there is a bug of ledgerpipe's own. */
  file(name: string): SqlFile;
  /** The files of a folder (`ledger`), in the graph's order. */
  folder(folder: string): SqlFile[];
}

let graph: Promise<SqlGraph> | undefined;

/**
 * This release's graph, read and ordered once a process.
 *
 * @example
 * const { files } = await sqlGraph(); // every file of sql/, each after what it reads
 */
export function sqlGraph(): Promise<SqlGraph> {
  graph ??= Promise.resolve().then(() => {
    const files = orderFiles(readAll());
    const byName = new Map(files.map((f) => [f.name, f]));
    return {
      files,
      file: (name) => {
        const f = byName.get(name);
        if (f === undefined) throw new Error(`sql/${name} is not a file of ledgerpipe's sql/`);
        return f;
      },
      folder: (folder) => files.filter((f) => f.name.startsWith(`${folder}/`)),
    };
  });
  return graph;
}

/**
 * A parameter's value: a DuckDB value, or one with its type where the value alone does not say it: a NULL, a list, a
 * JavaScript bigint (a HUGEINT unless typed).
 */
export type Param = DuckDBValue | { value: DuckDBValue; type: DuckDBType };
export type Params = Readonly<Record<string, Param>>;

/**
 * Parameters of the kinds the files take, each typed as they read it: a stage hands values, never SQL.
 *
 * @example
 * await withParams(c, { lp_account: param.text(account) }, () => readModel(c, 'reads/open_loans.sql'));
 */
export const param = {
  /** Text, or a NULL VARCHAR for none (an account's name: none is every account). */
  text: (value: string | null | undefined): Param => ({ value: value ?? null, type: VARCHAR }),
  /** A list of text (VARCHAR[]). */
  texts: (values: readonly string[]): Param => ({ value: listValue([...values]), type: LIST(VARCHAR) }),
  /** A Unix-ms instant as a TIMESTAMPTZ: -Infinity is DuckDB's -infinity, null a NULL TIMESTAMPTZ. */
  instant: (ms: number | null | undefined): Param =>
    ms === null || ms === undefined
      ? { value: null, type: TIMESTAMPTZ }
      : ms === Number.NEGATIVE_INFINITY
        ? DuckDBTimestampTZValue.NegInf
        : timestampTz(ms),
  /** Unix-ms instants as a TIMESTAMPTZ[]; null a NULL one. */
  instants: (ms: readonly number[] | null): Param => ({
    value: ms === null ? null : listValue(ms.map(timestampTz)),
    type: LIST(TIMESTAMPTZ),
  }),
  /** A whole number as a BIGINT (a JavaScript bigint alone binds as a HUGEINT). */
  integer: (n: number | bigint): Param => ({ value: BigInt(n), type: BIGINT }),
};

/** The variables bound on each connection now (withParams), and those whose reset failed, to reset later. */
const bound = new WeakMap<DuckDBConnection, Set<string>>();
const unreset = new WeakMap<DuckDBConnection, Set<string>>();
const boundOn = (c: DuckDBConnection): Set<string> => bound.get(c) ?? (bound.set(c, new Set()).get(c) as Set<string>);

const isTyped = (p: Param): p is { value: DuckDBValue; type: DuckDBType } =>
  typeof p === 'object' && p !== null && 'type' in p && 'value' in p;

/**
 * Binds `params` as DuckDB variables on `c` for `work`, then resets them, whether it succeeds or fails: a variable
 * outlives the transaction it was set in, and a later piece of work must not read it. A transaction a statement
 * failed in refuses the reset: the variable is then reset by forgetParams, after the rollback.
 *
 * @example
 * const params = { lp_from: param.instant(from), lp_to: param.instant(to), lp_account: param.text(account) };
 * await withParams(c, params, () => runModel(c, 'report/rows.sql'));
 */
export async function withParams<T>(c: DuckDBConnection, params: Params, work: () => Promise<T>): Promise<T> {
  const names = Object.keys(params);
  const on = boundOn(c);
  const twice = names.find((n) => on.has(n));
  if (twice !== undefined) throw new Error(`${twice} is bound already on this connection`);
  try {
    for (const [name, p] of Object.entries(params)) {
      if (!NAME.test(name)) throw new Error(`${name} is not a parameter's name`);
      on.add(name);
      // A bound NULL takes no type from the binding (DuckDB makes it an INTEGER): the cast gives it its own.
      if (isTyped(p))
        await c.run(
          `SET VARIABLE ${name} = CAST($value AS ${p.type.toString()})`,
          { value: p.value },
          { value: p.type },
        );
      else await c.run(`SET VARIABLE ${name} = $value`, { value: p });
    }
    return await work();
  } finally {
    for (const name of names) {
      on.delete(name);
      await c.run(`RESET VARIABLE ${name}`).catch(() => unreset.set(c, new Set([...(unreset.get(c) ?? []), name])));
    }
  }
}

/**
 * Resets the variables withParams could not (it was inside a failed transaction): after the rollback.
 *
 * @example
 * await warehouse.exclusive(forgetParams); // after a transaction that failed, before the next piece of work
 */
export async function forgetParams(c: DuckDBConnection): Promise<void> {
  for (const name of unreset.get(c) ?? []) await c.run(`RESET VARIABLE ${name}`);
  unreset.delete(c);
}

/** Refuses a file some of whose parameters are not bound. */
function assertBound(c: DuckDBConnection, file: SqlFile): void {
  const missing = file.params.filter((p) => !boundOn(c).has(p));
  if (missing.length > 0) throw new Error(`sql/${file.name} takes ${missing.join(', ')}: run it within withParams`);
}

/**
 * Runs a file's statements one after another on `c` (each prepared when its turn comes, so that it may read what
 * the ones before made), and returns its named results: what each statement named by `-- result:` reports, the
 * rows a DELETE, INSERT or CREATE TABLE ... AS wrote or the number a statement selects alone.
 *
 * @example
 * const { deleted, later } = await runModel(c, 'incremental/20_rows_out.sql');
 */
export async function runModel(c: DuckDBConnection, name: string): Promise<Record<string, number>> {
  const file = (await sqlGraph()).file(name);
  assertBound(c, file);
  // A file whose results nobody reads runs as one text, as DuckDB runs a script: statement by statement, each
  // prepared apart, the demo's year-end ran out of its 128 MB budget while extracting.
  if (file.results.every((r) => r === undefined)) {
    await c.run(file.text);
    return {};
  }
  const statements = await c.extractStatements(file.text);
  const results: Record<string, number> = {};
  for (let i = 0; i < statements.count; i++) {
    const rows = (await (await statements.prepare(i)).runAndReadAll()).getRows();
    const key = file.results[i];
    if (key === undefined) continue;
    const only = rows.length === 1 && rows[0]?.length === 1 ? rows[0][0] : undefined;
    results[key] = typeof only === 'bigint' || typeof only === 'number' ? Number(only) : 0;
  }
  return results;
}

/**
 * Runs a file whose last statement is a query (DuckDB runs its statements in turn and gives the last one's rows),
 * and returns that query's rows as objects by column name.
 *
 * @example
 * const problems = await readModel(c, 'checks/10_ledger_keys_unique.sql'); // [{ check_name, problem }, ...]
 */
export async function readModel(c: DuckDBConnection, name: string): Promise<Record<string, unknown>[]> {
  const file = (await sqlGraph()).file(name);
  assertBound(c, file);
  return (await c.runAndReadAll(file.text)).getRowObjectsJS();
}

/** The markers of the section of ARCHITECTURE.md that `npm run generate` writes from the graph. */
export const GRAPH_SECTION = {
  start: '<!-- sql-graph:start (npm run generate) -->',
  end: '<!-- sql-graph:end -->',
} as const;

/**
 * ARCHITECTURE.md with its graph section written anew between GRAPH_SECTION's markers: every file of `sql/` in the
 * order the runner computes, with what it creates and the parameters it takes.
 *
 * @example
 * await writeFile('ARCHITECTURE.md', withGraphSection(await readFile('ARCHITECTURE.md', 'utf8'), (await sqlGraph()).files));
 */
export function withGraphSection(page: string, files: readonly SqlFile[]): string {
  const start = page.indexOf(GRAPH_SECTION.start);
  const end = page.indexOf(GRAPH_SECTION.end);
  if (start < 0 || end < start)
    throw new Error(`ARCHITECTURE.md lacks the markers ${GRAPH_SECTION.start} and ${GRAPH_SECTION.end}`);
  const lines = files.map((f, i) => {
    const made = f.creates.length === 0 ? 'creates nothing' : f.creates.join(', ');
    return `${i + 1}. \`${f.name}\`: ${made}${f.params.length === 0 ? '' : ` (takes ${f.params.join(', ')})`}`;
  });
  return `${page.slice(0, start + GRAPH_SECTION.start.length)}\n${lines.join('\n')}\n${page.slice(end)}`;
}
