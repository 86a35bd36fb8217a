import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors/usage-error.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { checkOpeningLotsCurrency, parseOpeningLots, replaceOpeningLots } from '../gains/opening-lots.js';
import {
  defaultSetting,
  SETTING_LABELS,
  SETTING_NAMES,
  type CostBasis,
  type FiatSource,
  type HistoryFrom,
  type SettingName,
  type Settings,
} from '../tables/settings.js';
import { isEcbCurrency } from '../prices/ecb-currencies.js';
import { loadRates } from '../prices/rates-file.js';
import { formatInstant, parseInstant } from '../time/instant.js';
import { hasTables } from '../duckdb/tables.js';
import {
  recordedOrFirst,
  settingValues,
  writeSettings,
  type Recorded,
  type RecordedSettings,
} from '../warehouse/settings.js';
import {
  forgetCatalog,
  readStoredCatalog,
  releaseVersions,
  storeCatalog,
  useCatalog,
  useStoredCatalog,
} from '../warehouse/versions.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/**
 * What a command was given of the settings (docs/settings.md): its flags, else the config file's. A setting
 * absent here is kept as the warehouse records it; `fiat: null` is `--fiat none`.
 */
export interface GivenSettings {
  fiat?: string | null;
  /** --fiat-rates: a rates file for the fiat (docs/values.md). */
  fiatRates?: string;
  timeZone?: string;
  costBasis?: CostBasis;
  pool?: 'account' | 'all';
  taxYearStart?: string;
  withdrawals?: 'transfer' | 'disposal';
  /** --opening-lots: the file's lots replace those the warehouse holds. */
  openingLots?: string;
  /** --catalog: the file's rows replace the user's rows the warehouse holds; `none` forgets them. */
  catalog?: string;
  /** opening (--history), none (--no-history), or --history-from's date as typed: read in the settled time zone. */
  historyFrom?: 'opening' | 'none' | { date: string };
}

/** What this command does with what depends on the settings: the words of its lines say it. */
export interface SettleContext {
  /** How the command is named in set_by (`run year-end`). */
  command: string;
  now: number;
  /** The command computes the gains (an export, or a transform without one). */
  computesGains: boolean;
  /** The command runs a transform. */
  transforms: boolean;
}

export interface SettledSettings {
  settings: Settings;
  /**
   * One line per setting this command changed on a warehouse that had settings: `cost basis: fifo -> uk; disposals
   * recomputed`.
   */
  lines: string[];
}

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

async function readGiven(path: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new UsageError(
      `${flag} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the path of the file`,
      error,
    );
  }
}

/**
 * Where a fiat given without a rates file is valued from (docs/values.md, "A fiat"): the platform's USDT<fiat> pair,
 * unless the platform answered before that it has none and the ECB publishes the fiat: then through the euro.
 */
async function sourceWithoutFile(c: DuckDBConnection, fiat: string): Promise<FiatSource> {
  if (!isEcbCurrency(fiat)) return 'pair';
  const listed = (
    await c.runAndReadAll('SELECT listed FROM price_pairs WHERE symbol = $symbol', { symbol: `USDT${fiat}` })
  ).getRows()[0]?.[0];
  return listed === false ? 'ecb' : 'pair';
}

/** A setting's value as a line says it. */
function shown(name: SettingName, value: unknown): string {
  if (value === null) return name === 'fiat' ? 'none' : name === 'openingLotsSha256' ? 'none' : '-';
  if (name === 'openingLotsSha256' || name === 'catalogVersion') return String(value).slice(0, 12);
  if (name === 'historyFrom' && value !== 'opening' && value !== 'none')
    return formatInstant(Date.parse(String(value)));
  return String(value);
}

/** What is made again when `name` changes, in the words of its line. */
function consequence(name: SettingName, context: SettleContext, ledger: boolean): string {
  const gains = context.computesGains
    ? 'disposals recomputed'
    : 'the next transform or export recomputes the disposals';
  switch (name) {
    case 'fiat':
    case 'fiatSource':
    case 'timeZone':
      return ledger ? `values remade, ${gains}` : 'values are made with it';
    case 'catalogVersion':
      return context.transforms
        ? 'the ledger is booked again by this transform'
        : 'the next transform books the ledger again';
    case 'historyFrom':
      return 'the next run that computes gains reads the history from there';
    default:
      return gains;
  }
}

/**
 * What the range of a command is read with, before anything is written: its time zone and tax-year start as
 * settleSettings will settle them (given, else recorded, else their defaults, which follow the cost basis). A range
 * that has not begun is refused with them, the warehouse untouched.
 */
export function periodSettings(
  given: GivenSettings,
  recorded: RecordedSettings | undefined,
): { timeZone: string; taxYearStart: string } {
  const pick = <K extends 'costBasis' | 'timeZone' | 'taxYearStart'>(
    name: K,
    chosen: Partial<Settings>,
  ): Settings[K] => {
    const before = recorded?.[name];
    return (given[name] ??
      (before !== undefined && before.setBy !== null ? before.value : defaultSetting(name, chosen))) as Settings[K];
  };
  const costBasis = pick('costBasis', {});
  return { timeZone: pick('timeZone', { costBasis }), taxYearStart: pick('taxYearStart', { costBasis }) };
}

/**
 * Settles the warehouse's settings for one command (docs/settings.md): what the command was given, else what the
 * warehouse records, else the defaults. A given value that differs changes the setting and is said in one line;
 * one not given is never reset. The files given (rates, opening lots, catalog) are loaded with the row, in one
 * transaction, so that what the row says the warehouse holds. Takes the type catalog for this process: the
 * given file, else the rows the warehouse holds.
 *
 * @example
 * const { settings, lines } = await settleSettings(warehouse, { costBasis: 'uk' }, { command: 'export', now, computesGains: true, transforms: false });
 */
export async function settleSettings(
  warehouse: Warehouse,
  given: GivenSettings,
  context: SettleContext,
): Promise<SettledSettings> {
  // The catalog first: its version is one of the settings, and every version read after this covers it. `none`
  // goes back to the package's rows alone.
  const catalogFile = given.catalog === 'none' ? undefined : given.catalog;
  if (catalogFile !== undefined) await useCatalog(catalogFile);
  else if (given.catalog === 'none') await useCatalog(undefined);
  else await useStoredCatalog(await warehouse.exclusive(readStoredCatalog));
  const catalogBytes = catalogFile === undefined ? undefined : await readGiven(catalogFile, '--catalog');
  const catalogVersion = (await releaseVersions()).catalog;
  const lotsText = given.openingLots === undefined ? undefined : await readGiven(given.openingLots, '--opening-lots');
  const files = { catalogFile, catalogBytes, catalogVersion, lotsText };
  return warehouse.transaction((c) => settleIn(c, given, context, files));
}

/** What settleSettings read before its transaction: the catalog file given and its bytes, the opening lots' text. */
interface GivenFiles {
  catalogFile: string | undefined;
  catalogBytes: Buffer | undefined;
  /** The catalog's version in this process (its rows once the given file, or the stored one, is in use). */
  catalogVersion: string;
  lotsText: Buffer | undefined;
}

/** settleSettings' transaction: each setting in turn, the files given loaded with it, and the row written. */
async function settleIn(
  c: DuckDBConnection,
  given: GivenSettings,
  context: SettleContext,
  files: GivenFiles,
): Promise<SettledSettings> {
  const { catalogFile, catalogBytes, catalogVersion, lotsText } = files;
  const recorded = await recordedOrFirst(c);
  const { chosen, next, set } = settingChooser(recorded, context);
  set('fiat', given.fiat);
  const fiat = chosen.fiat ?? null;
  await settleFiatSource(c, given, fiat, { recorded, chosen, next, set });
  // The cost basis before the settings whose defaults follow it (docs/settings.md). The UK rules, given, bring the
  // UK's tax year and clock as settings of their own (unless given or set): a later cost basis does not move them.
  set('costBasis', given.costBasis);
  const bringsUk = given.costBasis === 'uk' && recorded.costBasis.value !== 'uk';
  const broughtBy = (name: 'timeZone' | 'taxYearStart') =>
    bringsUk && given[name] === undefined && recorded[name].setBy === null
      ? (defaultSetting(name, chosen) as string)
      : given[name];
  set('timeZone', broughtBy('timeZone'));
  set('pool', given.pool);
  set('taxYearStart', broughtBy('taxYearStart'));
  set('withdrawals', given.withdrawals);
  if (lotsText !== undefined)
    await replaceOpeningLots(c, parseOpeningLots(lotsText.toString('utf8'), given.openingLots as string));
  set('openingLotsSha256', lotsText === undefined ? undefined : sha256(lotsText));
  await checkOpeningLotsCurrency(c, fiat ?? 'USDT');
  if (catalogBytes !== undefined)
    await storeCatalog(c, {
      file: catalogFile as string,
      content: catalogBytes.toString('utf8'),
      sha256: sha256(catalogBytes),
      now: context.now,
    });
  if (given.catalog === 'none') await forgetCatalog(c);
  set('catalogVersion', catalogVersion === recorded.catalogVersion.value ? undefined : catalogVersion);
  // A date given is the start of that day in the warehouse's time zone, as the range's dates are.
  const since = given.historyFrom;
  set(
    'historyFrom',
    typeof since === 'object'
      ? (formatInstant(parseInstant(since.date, chosen.timeZone as string, '--history-from')) as HistoryFrom)
      : since,
  );
  await writeSettings(c, next);
  return {
    settings: settingValues(next),
    lines: changeLines(recorded, next, context, await hasTables(c, ['ledger'])),
  };
}

/**
 * The rates follow the fiat: a file given loads its rates; a fiat given alone is valued by the platform's pair, or
 * through the euro when the platform is known to have none (the prices stage decides when it is not known yet).
 */
async function settleFiatSource(
  c: DuckDBConnection,
  given: GivenSettings,
  fiat: string | null,
  settling: ReturnType<typeof settingChooser> & { recorded: RecordedSettings },
): Promise<void> {
  const { recorded, chosen, next, set } = settling;
  if (given.fiatRates !== undefined && fiat !== null) await loadRates(c, given.fiatRates, fiat);
  const withoutFile = fiat === null ? undefined : await sourceWithoutFile(c, fiat);
  const source =
    fiat === null
      ? null
      : given.fiatRates !== undefined
        ? 'file'
        : given.fiat !== undefined && given.fiat !== recorded.fiat.value
          ? withoutFile
          : undefined;
  if (source === null) next.fiatSource = { value: null, setAt: null, setBy: null };
  else set('fiatSource', source ?? (recorded.fiatSource.value === null ? withoutFile : undefined));
  chosen.fiatSource = next.fiatSource.value;
}

/**
 * Settles one setting at a time into `next`, its value also in `chosen` for the defaults that follow it: a value
 * given (the row kept when it is the same and was set), else the value set before, else the default.
 */
function settingChooser(recorded: RecordedSettings, context: SettleContext) {
  const chosen: Partial<Settings> = {};
  const next = {} as RecordedSettings;
  const set = <K extends SettingName>(name: K, value: Settings[K] | undefined): void => {
    const before = recorded[name] as Recorded<Settings[K]>;
    let entry: Recorded<Settings[K]>;
    if (value !== undefined)
      entry =
        value === before.value && before.setBy !== null
          ? before
          : { value, setAt: context.now, setBy: context.command };
    else if (before.setBy !== null) entry = before;
    else entry = { value: defaultSetting(name, chosen) as Settings[K], setAt: null, setBy: null };
    chosen[name] = entry.value;
    (next as Record<SettingName, Recorded<unknown>>)[name] = entry;
  };
  return { chosen, next, set };
}

/**
 * One line per setting the command changed (`cost basis: fifo -> uk; disposals recomputed`); none on a warehouse that
 * had no settings.
 */
function changeLines(
  recorded: RecordedSettings,
  next: RecordedSettings,
  context: SettleContext,
  ledger: boolean,
): string[] {
  const hadSettings = SETTING_NAMES.some((n) => recorded[n].setBy !== null);
  if (!hadSettings) return [];
  return (
    SETTING_NAMES.filter(
      (n) => next[n].value !== recorded[n].value && !(n === 'catalogVersion' && recorded[n].value === null),
    )
      // With a new fiat, pair and ecb are the platform's to decide (the prices stage says when it goes through the
      // euro): only a rates file given or left is said beside the fiat's line.
      .filter(
        (n) =>
          !(
            n === 'fiatSource' &&
            next.fiat.value !== recorded.fiat.value &&
            next[n].value !== 'file' &&
            recorded[n].value !== 'file'
          ),
      )
      .map(
        (n) =>
          `${SETTING_LABELS[n]}: ${shown(n, recorded[n].value)} -> ${shown(n, next[n].value)}; ${consequence(n, context, ledger)}`,
      )
  );
}
