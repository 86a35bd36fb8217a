import { readFor, type AccountMode, type PartitionDef } from '../streams/stream.js';
import { STREAMS } from '../streams/index.js';
import { DICTIONARY, LEDGER_SOURCES, STREAM_TABLES, TYPED_AT_LOAD } from '../tables/index.js';
import { notNullColumns, typedColumns, type TableDef, type StreamTableDef } from '../streams/table.js';
import { ident, literal } from '../duckdb/quote.js';
import { headerLines } from './sql-graph.js';
import { typingFile } from './typing-sql.js';

/**
 * The SQL the registry of tables makes (docs/adding-a-stream.md): the one place SQL text is written from the
 * tables' definitions rather than read from a file of `sql/`. The typed tables' DDL runs when a warehouse opens
 * (syncTypedTables); the rest is written into `sql/generated/` by `npm run generate`, so that every model users
 * read is defined in a file a person can read and run, and a test holds those files to this code.
 */

type TypedTableDef = (typeof TYPED_AT_LOAD)[number];

/**
 * The header of every generated file: where it comes from, and that it is not edited by hand. The versions hash the
 * files' statements, not their comment lines (versions.ts), so its words may change.
 */
const GENERATED =
  '-- Generated from the registry of tables (src/streams/*.ts, src/tables/) by `npm run generate`: do not edit.';

/** The table a stream typed at load is typed into: its columns, the record's identity and time NOT NULL, no key. */
export function typedTableDdl(def: TypedTableDef, options: { replace: boolean }): string {
  const notNull = new Set(notNullColumns(def));
  const columns = typedColumns(def).map((c) => `  ${ident(c.name)} ${c.type}${notNull.has(c.name) ? ' NOT NULL' : ''}`);
  const create = options.replace ? 'CREATE OR REPLACE TABLE' : 'CREATE TABLE IF NOT EXISTS';
  return `${create} ${ident(`typed_${def.name}`)} (\n${columns.join(',\n')}\n)`;
}

/**
 * A typed stream's table: the view of its typed table's columns, but the raw key (and a partition it does not show).
 */
function streamView(def: StreamTableDef): string {
  return `CREATE OR REPLACE VIEW ${def.name} AS\nSELECT\n${columnLines(def.columns.map((c) => c.name))}\nFROM typed_${def.name};`;
}

/** Column names as a SELECT list, a few to an indented line. */
function columnLines(names: readonly string[]): string {
  const lines: string[] = [];
  for (const name of names) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + name.length < 100) lines[lines.length - 1] = `${last}, ${name}`;
    else lines.push(`  ${name}`);
  }
  return lines.join(',\n');
}

/** The kinds of account, each with the streams it reads (docs/unified-accounts.md). */
const ACCOUNT_MODES: readonly AccountMode[] = ['classic', 'uta'];

/** A table made from a stream's (the fills' fee entries): the view of the table macro of that name in the stream's SQL. */
function derivedView(def: TableDef): string {
  return `CREATE OR REPLACE VIEW ${def.name} AS\nSELECT * FROM lp_${def.name}();`;
}

/** The legs of every stream the ledger books one way, one after the other (each stream's lp_legs_<stream>). */
function legsUnion(name: string, defs: readonly StreamTableDef[]): string {
  const arms = defs.map((m, i) => `${i === 0 ? 'SELECT' : 'UNION ALL SELECT'} * FROM lp_legs_${m.name}()`);
  return `CREATE OR REPLACE MACRO ${name}() AS TABLE\n${arms.join('\n')};`;
}

/**
 * The rows of lp_account_type_sources: each paged stream's partitions that move an account type's balances, once
 * for each kind of account that reads the stream.
 */
function accountTypeSources(): string[] {
  return STREAMS.flatMap((s) =>
    s.kind === 'paged'
      ? (s.partitions as readonly PartitionDef[]).flatMap((p) =>
          p.accountType === undefined
            ? []
            : ACCOUNT_MODES.filter((mode) => readFor(s, mode)).map(
                (mode) =>
                  `(${literal(s.name)}, ${literal(p.name)}, ${literal(p.accountType as string)}, ${literal(mode)})`,
              ),
        )
      : [],
  );
}

/** models.sql's header: the views and macros it creates, and the typed tables and macros they read. */
function modelsHeader(): string {
  const typed = STREAM_TABLES.filter((m) => m.typedAtLoad !== undefined);
  const derived = STREAM_TABLES.flatMap((m) => m.derived ?? []);
  return headerLines({
    creates: [
      ...STREAM_TABLES.flatMap((m) => [
        ...(m.typedAtLoad === undefined ? [] : [m.name]),
        ...(m.derived ?? []).map((d) => d.name),
      ]),
      'lp_booked_streams',
      'lp_account_type_sources',
      'lp_paired_legs',
      'lp_alone_legs',
    ],
    reads: [
      ...typed.map((m) => `typed_${m.name}`),
      ...derived.map((d) => `lp_${d.name}`),
      ...LEDGER_SOURCES.map((m) => `lp_legs_${m.name}`),
    ].sort(),
    params: [],
  });
}

/** `sql/generated/models.sql`, which the transform runs after the seeds, before the ledger. */
export function modelsFile(): string {
  const views = STREAM_TABLES.flatMap((m) => [
    ...(m.typedAtLoad === undefined ? [] : [streamView(m)]),
    ...(m.derived ?? []).map(derivedView),
  ]);
  const paired = LEDGER_SOURCES.filter((m) => m.ledger === 'paired');
  const alone = LEDGER_SOURCES.filter((m) => m.ledger === 'alone');
  const booked = LEDGER_SOURCES.map((m) => `(${literal(m.name)}, ${m.ledger === 'paired'})`).join(',\n  ');
  const moving = accountTypeSources();
  const header = modelsHeader();
  return `${GENERATED}
-- The models of the streams typed at load: views on their typed tables (sql/generated/typing.sql types the records
-- as they load), and the models made from them.
${header}

${views.join('\n\n')}

-- The streams the ledger books, and whether their legs pair with others of their millisecond
-- (sql/ledger/10_ledger.sql, src/transform/incremental.ts).
CREATE OR REPLACE MACRO lp_booked_streams() AS TABLE
SELECT * FROM (VALUES
  ${booked}) AS s(source, paired);

-- The streams and partitions whose records move each account type's balances (each partition's accountType,
-- src/streams/), for each kind of account that reads them (docs/unified-accounts.md): a span of an account type is
-- covered by the ledger when each of those of the account's kind is (sql/completeness/).
CREATE OR REPLACE MACRO lp_account_type_sources() AS TABLE
SELECT * FROM (VALUES
  ${moving.join(',\n  ')}) AS s(stream, partition, account_type, account_mode);

-- The ledger's legs of every record it books (each stream's lp_legs_<stream>): those that pair with the other
-- legs of their stream and millisecond into one trade, and those that stand alone. The ledger and the checks read
-- them; an incremental transform reads them over the changed records' copies in the schema lp_delta.
${legsUnion('lp_paired_legs', paired)}

${legsUnion('lp_alone_legs', alone)}
`;
}

/**
 * `sql/generated/delta_models.sql`: the typed rows of the records an incremental transform rebooks
 * (lp_delta.rebooked), copied into the schema lp_delta under their tables' names, where the legs read them.
 */
export function deltaModelsFile(): string {
  const copies = LEDGER_SOURCES.map(
    (m) => `CREATE OR REPLACE TABLE lp_delta.typed_${m.name} AS
SELECT t.* FROM main.typed_${m.name} AS t
SEMI JOIN lp_delta.rebooked AS r ON r.account = t.account AND r.source = ${literal(m.name)} AND r.source_id = t.key;`,
  );
  // Each copy is made of the table of its own name (main's): a copy, which the graph's other readers do not wait for.
  const tables = LEDGER_SOURCES.map((m) => `typed_${m.name}`);
  return `${GENERATED}
-- The typed rows of the records an incremental transform rebooks (src/transform/incremental.ts), copied into the
-- schema lp_delta under their tables' own names: with lp_delta first on DuckDB's search path, the legs of
-- sql/models/, and so the ledger and the checks, read these copies.
${headerLines({ creates: tables, reads: [...tables, 'rebooked'].sort(), params: [] })}

${copies.join('\n\n')}
`;
}

/** A Markdown table cell: pipes escaped, on one line. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * `docs/tables.md`: every table and view users read, with what each column means, from the registry of tables;
 * the same words the warehouse holds as COMMENTs (src/warehouse/dictionary.ts).
 */
export function tablesPage(): string {
  const index = DICTIONARY.map((m) => `[\`${m.name}\`](#${m.name})`).join(', ');
  const sections = DICTIONARY.map((m) => {
    const rows = m.columns.map((c) => `| \`${c.name}\` | ${c.type} | ${cell(c.description)} |`);
    return `## ${m.name}\n\n${m.kind === 'view' ? 'View' : 'Table'}. ${m.description}\n\n| column | type | meaning |\n|---|---|---|\n${rows.join('\n')}\n`;
  });
  return `<!-- Generated from the registry of tables (src/streams/*.ts, src/tables/) by \`npm run generate\`: do not edit. -->
# The warehouse's tables

Every table and view of the warehouse a person reads, with what each column means. The warehouse holds the same
words as comments: \`SELECT table_name, column_name, comment FROM duckdb_columns()\` shows them, and so does a SQL
client. Amounts are exact decimals (\`DECIMAL(38,18)\`); times are instants (\`TIMESTAMP WITH TIME ZONE\`), shown in
UTC. With \`--fiat\`, \`ledger_valued\` and \`year_summary\` also have \`value_<fiat>\` (\`value_eur\`): the value in that currency.
Every name is written bare in SQL: none is a keyword DuckDB reserves (\`test/tables/keywords.test.ts\`).

${index}

${sections.join('\n')}`;
}

/** Every file `npm run generate` writes, by its path from ledgerpipe's folder. */
export function generatedFiles(): Record<string, string> {
  return {
    'sql/generated/typing.sql': typingFile(),
    'sql/generated/models.sql': modelsFile(),
    'sql/generated/delta_models.sql': deltaModelsFile(),
    'docs/tables.md': tablesPage(),
  };
}
