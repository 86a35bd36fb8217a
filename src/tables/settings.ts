import { accountColumn, amount, instant, text, type Column, type TableDef } from '../streams/table.js';

/**
 * The warehouse's settings (docs/settings.md): how its values, gains and history are made, recorded once in the
 * table `settings` so that every later command keeps them. The names, their columns and their meanings are told
 * here; src/warehouse/settings.ts reads and writes the row, src/pipeline/settings.ts decides it.
 */

/** How disposals are matched with acquisitions (docs/gains.md). */
export type CostBasis = 'fifo' | 'hifo' | 'average' | 'uk';
export const COST_BASES: readonly CostBasis[] = ['fifo', 'hifo', 'average', 'uk'];

/** Where the fiat's rates come from: the platform's USDT<fiat> pair, the ECB's euro rates, or the user's file. */
export type FiatSource = 'pair' | 'ecb' | 'file';

/**
 * `opening`: each account's registration time (the default); `none`: no history (--no-history); else an ISO instant
 * (--history-from).
 */
export type HistoryFrom = 'opening' | 'none' | `${number}-${string}`;

export interface Settings {
  fiat: string | null;
  fiatSource: FiatSource | null;
  timeZone: string;
  costBasis: CostBasis;
  pool: 'account' | 'all';
  /** MM-DD. */
  taxYearStart: string;
  withdrawals: 'transfer' | 'disposal';
  /** The SHA-256 of the --opening-lots file whose rows the warehouse holds (table opening_lots); null for none. */
  openingLotsSha256: string | null;
  /** The type catalog's version (the package's rows, and the user's --catalog rows the warehouse holds). */
  catalogVersion: string | null;
  historyFrom: HistoryFrom;
}

export type SettingName = keyof Settings;

/** Each setting's column in the table `settings`, in the table's order. */
export const SETTING_COLUMNS: Readonly<Record<SettingName, string>> = {
  fiat: 'fiat',
  fiatSource: 'fiat_source',
  timeZone: 'time_zone',
  costBasis: 'cost_basis',
  pool: 'pool',
  taxYearStart: 'tax_year_start',
  withdrawals: 'withdrawals',
  openingLotsSha256: 'opening_lots_sha256',
  catalogVersion: 'catalog_version',
  historyFrom: 'history_from',
};

export const SETTING_NAMES = Object.keys(SETTING_COLUMNS) as SettingName[];

/** How each setting is said in a line to people: `cost basis: fifo -> uk`. */
export const SETTING_LABELS: Readonly<Record<SettingName, string>> = {
  fiat: 'fiat',
  fiatSource: 'fiat rates',
  timeZone: 'time zone',
  costBasis: 'cost basis',
  pool: 'pool',
  taxYearStart: 'tax-year start',
  withdrawals: 'withdrawals',
  openingLotsSha256: 'opening lots',
  catalogVersion: 'type catalog',
  historyFrom: 'history from',
};

/** The lots before pools: fifo and hifo keep each account's lots apart, average and the UK rules pool them all. */
export const DEFAULT_POOL: Readonly<Record<CostBasis, 'account' | 'all'>> = {
  fifo: 'account',
  hifo: 'account',
  average: 'all',
  uk: 'all',
};

/** Each setting before any command gives it (docs/settings.md). */
const DEFAULTS = {
  fiat: null,
  timeZone: 'UTC',
  costBasis: 'fifo',
  taxYearStart: '01-01',
  withdrawals: 'transfer',
  openingLotsSha256: null,
  historyFrom: 'opening',
} as const satisfies Partial<Settings>;

/**
 * A setting's default, given the others chosen so far: the pool follows the cost basis, and the UK rules bring the
 * UK's tax year (6 April, Income Tax Act 2007 s.4) and its clock (Europe/London), each unless given.
 */
export function defaultSetting(name: SettingName, chosen: Partial<Settings>): unknown {
  const costBasis = chosen.costBasis ?? DEFAULTS.costBasis;
  if (name === 'pool') return DEFAULT_POOL[costBasis];
  if (name === 'taxYearStart' && costBasis === 'uk') return UK_TAX_YEAR_START;
  if (name === 'timeZone' && costBasis === 'uk') return UK_TIME_ZONE;
  return (DEFAULTS as Partial<Record<SettingName, unknown>>)[name] ?? null;
}

/** The UK's tax year starts on 6 April (HMRC, "Tax year", CRYPTO22030 speaks of it; Income Tax Act 2007 s.4). */
export const UK_TAX_YEAR_START = '04-06';
export const UK_TIME_ZONE = 'Europe/London';

const descriptions: Readonly<Record<SettingName, string>> = {
  fiat: "The fiat currency every movement is also valued in (--fiat, the config's fiat); NULL: USDT only.",
  fiatSource:
    "Where the fiat's rates come from: pair (the platform's USDT<fiat> candles), ecb (the European Central Bank's euro rates, table fx_rates) or file (--fiat-rates, table fiat_rates); NULL without a fiat.",
  timeZone: 'The IANA time zone of dates, years and --year (--tz).',
  costBasis: 'How disposals are matched with acquisitions: fifo, hifo, average or uk (--cost-basis).',
  pool: "account (each account's lots apart) or all (one pool of every account's) (--pool).",
  taxYearStart: 'MM-DD, the first day of a tax year (--tax-year-start).',
  withdrawals:
    'transfer (coins withdrawn leave the lots without a gain) or disposal (disposed of at their value) (--withdrawals).',
  openingLotsSha256: 'The SHA-256 of the --opening-lots file whose lots the table opening_lots holds; NULL for none.',
  catalogVersion:
    "The type catalog's version: the SHA-256 of the package's seed files and of the --catalog rows the table user_catalog holds.",
  historyFrom:
    "How far back the streams that carry acquisitions are read for the cost basis: opening (each account's registration), none (--no-history), or an instant (--history-from).",
};

const struct = (type: string): Column['type'] =>
  `STRUCT(${SETTING_NAMES.map((n) => `${SETTING_COLUMNS[n]} ${type}`).join(', ')})`;

export const settings: TableDef = {
  name: 'settings',
  kind: 'table',
  description:
    "The warehouse's settings, one row: the first command that gives one sets it, later commands keep it, a flag that differs changes it and says so (sql/warehouse/012_the_books.sql; docs/settings.md).",
  columns: [
    ...SETTING_NAMES.map((n) => text(SETTING_COLUMNS[n], descriptions[n])),
    {
      name: 'set_at',
      type: struct('TIMESTAMP WITH TIME ZONE'),
      description: 'When each setting was set, by its column name (set_at.fiat); NULL for a default never given.',
    },
    {
      name: 'set_by',
      type: struct('VARCHAR'),
      description:
        "The command that set each, by its column name (set_by.cost_basis: 'run year-end'); NULL for a default never given.",
    },
  ],
};

export const openingLots: TableDef = {
  name: 'opening_lots',
  kind: 'table',
  description:
    'The lots held before the records ledgerpipe reads (--opening-lots FILE, kept so that later commands use them too; docs/history.md, "Opening lots"): one row per line of the file.',
  columns: [
    accountColumn,
    text('asset', 'The token held.'),
    amount('quantity', 'How much of it.'),
    amount('cost', 'What it cost, in currency.'),
    text('currency', "The currency of cost: the gains' unit (the fiat, else USDT)."),
    instant('acquired_at', 'When it was acquired.'),
  ],
};

export const userCatalog: TableDef = {
  name: 'user_catalog',
  kind: 'table',
  description:
    'Your own type-catalog rows (--catalog FILE, kept so that later commands use them too; docs/ledger.md, "Adding a type"): the file as given, at most one row.',
  columns: [
    text('file', 'The path the file was given as.'),
    text('sha256', "The file's SHA-256."),
    text('content', "The file's text."),
    instant('set_at', 'When it was given.'),
  ],
};

export const accountOpenings: TableDef = {
  name: 'account_openings',
  kind: 'table',
  description:
    'When each account was opened, as the platform says (GET /api/v2/spot/account/info, regisTime; docs/history.md): the history a cost basis reads goes back to it.',
  columns: [
    accountColumn,
    instant('registered_at', "The account's registration time (regisTime)."),
    instant('read_at', 'When it was read.'),
  ],
};

export const accountModes: TableDef = {
  name: 'account_modes',
  kind: 'table',
  description:
    'Which kind of account each key drives, as the last run that read it found (GET /api/v3/account/settings; docs/unified-accounts.md): classic (the v2 endpoints) or uta, a unified trading account (the v3 endpoints). An account it does not list is classic.',
  columns: [
    accountColumn,
    text('mode', 'classic or uta: the streams the account is read with, and those the gap rule holds it to.'),
    text(
      'account_mode',
      "The settings endpoint's `accountMode` as served for a unified account (unified, hybrid, upgrading, switching); NULL for a classic one.",
    ),
    text('how', 'How it was found: the answer, or the refusal (40084 for a classic key), in words.'),
    instant('found_at', 'When it was found.'),
  ],
};

export const SETTINGS_TABLES: readonly TableDef[] = [settings, openingLots, userCatalog, accountOpenings, accountModes];
