import type { DuckDBConnection } from '@duckdb/node-api';
import { defaultSetting, SETTING_COLUMNS, SETTING_NAMES, type SettingName, type Settings } from '../tables/settings.js';
import { runModel } from './sql-graph.js';
import { hasTables } from '../duckdb/tables.js';
import { timestampTz } from '../duckdb/time-values.js';

/** One setting as recorded: its value, and when and by which command it was given (null: a default never given). */
export interface Recorded<T> {
  value: T;
  setAt: number | null;
  setBy: string | null;
}

export type RecordedSettings = { [K in SettingName]: Recorded<Settings[K]> };

const columns = SETTING_NAMES.map((n) => SETTING_COLUMNS[n]);

const SELECT_SETTINGS = `SELECT ${columns.join(', ')}, ${columns.map((c) => `epoch_ms(set_at.${c}) AS "${c}:at", set_by.${c} AS "${c}:by"`).join(', ')} FROM settings LIMIT 1`;

const INSERT_SETTINGS = `INSERT INTO settings VALUES (${columns.map((c) => `$${c}`).join(', ')},
  struct_pack(${columns.map((c) => `${c} := CAST($${c}_at AS TIMESTAMPTZ)`).join(', ')}),
  struct_pack(${columns.map((c) => `${c} := CAST($${c}_by AS VARCHAR)`).join(', ')}))`;

/**
 * The settings the warehouse records (docs/settings.md), or undefined before the first command of this release
 * settled them.
 *
 * @example
 * const recorded = await readSettings(c); // recorded?.costBasis.value === 'uk'
 */
export async function readSettings(c: DuckDBConnection): Promise<RecordedSettings | undefined> {
  if (!(await hasTables(c, ['settings']))) return undefined;
  const row = (await c.runAndReadAll(SELECT_SETTINGS)).getRowObjectsJS()[0];
  if (row === undefined) return undefined;
  const entries = SETTING_NAMES.map((name) => {
    const column = SETTING_COLUMNS[name];
    const at = row[`${column}:at`];
    const by = row[`${column}:by`];
    return [
      name,
      {
        value: row[column] ?? null,
        setAt: at === null || at === undefined ? null : Number(at),
        setBy: by === null || by === undefined ? null : String(by),
      },
    ];
  });
  return Object.fromEntries(entries) as RecordedSettings;
}

/** Writes the one row of `settings`, replacing the one before. */
export async function writeSettings(c: DuckDBConnection, settings: RecordedSettings): Promise<void> {
  const values: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const column = SETTING_COLUMNS[name];
    const s = settings[name];
    values[column] = s.value;
    values[`${column}_at`] = s.setAt === null ? null : timestampTz(s.setAt);
    values[`${column}_by`] = s.setBy;
  }
  await c.run('DELETE FROM settings');
  await c.run(INSERT_SETTINGS, values as Record<string, never>);
}

/**
 * Records one setting that a stage decided, not a flag (the fiat's source once the platform's answers say which:
 * docs/settings.md), with when and by which command. The others stay as recorded.
 *
 * @example
 * await recordSetting(c, 'fiatSource', 'ecb', { now: Date.now(), command: 'run year-end' });
 */
export async function recordSetting<K extends SettingName>(
  c: DuckDBConnection,
  name: K,
  value: Settings[K],
  by: { now: number; command: string },
): Promise<void> {
  const recorded = await recordedOrFirst(c);
  await writeSettings(c, { ...recorded, [name]: { value, setAt: by.now, setBy: by.command } });
}

/**
 * What a warehouse of an earlier release recorded of the settings this one keeps, for its first row: the
 * valuation its views were last made with (table valuation) and the cost basis of its last export (table
 * disposals). The rest it never recorded.
 */
export async function earlierReleaseSettings(c: DuckDBConnection): Promise<Partial<Settings>> {
  const found: Partial<Settings> = {};
  if (!(await hasTables(c, ['valuation']))) return found;
  const valuation = (await c.runAndReadAll('SELECT fiat, fiat_source, time_zone FROM valuation LIMIT 1')).getRows()[0];
  if (valuation !== undefined) {
    found.fiat = valuation[0] === null ? null : String(valuation[0]);
    found.fiatSource = valuation[1] === null ? null : (String(valuation[1]) as Settings['fiatSource']);
    found.timeZone = String(valuation[2]);
  }
  if (await hasTables(c, ['disposals'])) {
    const [basis, year] =
      (await c.runAndReadAll('SELECT any_value(cost_basis), any_value(tax_year) FROM disposals')).getRows()[0] ?? [];
    if (basis !== null && basis !== undefined) found.costBasis = String(basis) as Settings['costBasis'];
    // Its tax years named by a calendar year ('2025'): it started them on 1 January, whatever its cost basis.
    if (typeof year === 'string' && /^\d{4}$/.test(year)) found.taxYearStart = '01-01';
  }
  return found;
}

/**
 * The settings as recorded, or those a warehouse starts from: every setting at its default, but what an earlier
 * release recorded (its valuation, its last export's cost basis), kept as set by that release.
 */
export async function recordedOrFirst(c: DuckDBConnection): Promise<RecordedSettings> {
  const recorded = await readSettings(c);
  if (recorded !== undefined) return recorded;
  const earlier = await earlierReleaseSettings(c);
  const entries = SETTING_NAMES.map((name) => {
    const value = (earlier as Record<string, unknown>)[name];
    return [
      name,
      value === undefined
        ? { value: defaultSetting(name, earlier), setAt: null, setBy: null }
        : { value, setAt: null, setBy: EARLIER_RELEASE },
    ];
  });
  return Object.fromEntries(entries) as RecordedSettings;
}

/** The values of recorded settings, without when and by whom. */
export function settingValues(recorded: RecordedSettings): Settings {
  return Object.fromEntries(SETTING_NAMES.map((n) => [n, recorded[n].value])) as unknown as Settings;
}

/** The values of the settings a warehouse has (recordedOrFirst). */
export async function currentSettings(c: DuckDBConnection): Promise<Settings> {
  return settingValues(await recordedOrFirst(c));
}

/** Who set what a warehouse of an earlier release recorded (docs/upgrading.md). */
export const EARLIER_RELEASE = 'an earlier release';

/** The instant an account was opened, as recorded (account_openings), or undefined. */
export async function readOpening(c: DuckDBConnection, account: string): Promise<number | undefined> {
  const row = (
    await c.runAndReadAll('SELECT epoch_ms(registered_at) FROM account_openings WHERE account = $account', { account })
  ).getRows()[0];
  return row === undefined ? undefined : Number(row[0]);
}

/** Records when an account was opened (the platform's regisTime). */
export async function recordOpening(
  c: DuckDBConnection,
  entry: { account: string; registeredAt: number; now: number },
): Promise<void> {
  await c.run('INSERT OR REPLACE INTO account_openings VALUES ($account, $at, $now)', {
    account: entry.account,
    at: timestampTz(entry.registeredAt),
    now: timestampTz(entry.now),
  });
}

/** The settings as they were before a command changed them; the tables they hold are copied beside (sql/books/). */
export interface BooksSnapshot {
  settings: RecordedSettings | undefined;
}

/**
 * What settleSettings may change, read before it does, so that a command refused for its input can put it back.
 * The tables are copied into temporary tables of the connection (exact types, one statement each).
 */
export async function snapshotBooks(c: DuckDBConnection): Promise<BooksSnapshot> {
  await runModel(c, 'books/snapshot.sql');
  return { settings: await readSettings(c) };
}

/**
 * Puts back the settings, opening lots, catalog and rates a snapshot holds (docs/settings.md: a refused command changes
 * none).
 */
export async function restoreBooks(c: DuckDBConnection, snapshot: BooksSnapshot): Promise<void> {
  await c.run('DELETE FROM settings');
  if (snapshot.settings !== undefined) await writeSettings(c, snapshot.settings);
  await runModel(c, 'books/restore.sql');
}
