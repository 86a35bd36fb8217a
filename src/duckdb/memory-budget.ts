/**
 * The memory budgets DuckDB works within, and what to say when one is not enough. No DuckDB here: the CLI's
 * error line reads it, and `--help` must not load DuckDB.
 */

/**
 * DuckDB's memory budget unless LEDGERPIPE_MEMORY_LIMIT says otherwise. DuckDB fills whatever budget it has
 * with cached blocks (its default is 80% of the machine), so without one a process grows with the warehouse;
 * with one, sorts and joins beyond it spill to disk. It fits a busy account's year-end (docs/performance.md,
 * "Memory"). `query` opens its own read-only instance without a budget: ad-hoc analysis gets DuckDB's default.
 */
export const DEFAULT_MEMORY_LIMIT = '224MB';

/**
 * The budget extraction runs within unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage. Extraction
 * appends pages and looks their keys up; with more, DuckDB keeps the blocks it wrote cached, and runs no
 * faster (docs/performance.md, "Memory").
 */
export const DEFAULT_EXTRACTION_MEMORY_LIMIT = '128MB';

/**
 * The budget of the summary read after a transform unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage:
 * aggregates of a few groups over the whole ledger, which need next to nothing, but DuckDB keeps the blocks
 * they read cached up to its budget. At 224 MB a night's transform over 3M fills of history peaked at 313 MB
 * of RSS, all of it after the transform itself (docs/performance.md, "Memory").
 */
export const DEFAULT_SUMMARY_MEMORY_LIMIT = '64MB';

/**
 * The budget of work over the whole ledger at once, unless LEDGERPIPE_MEMORY_LIMIT sets one for every stage: a
 * transform that makes the whole ledger (written sorted in the exports' order), and an export's tax files (their
 * rows group every trade of the range). Both spill or fail at 224 MB on a busy year: over the 2.25M ledger rows of a
 * year of 1M fills with every stream, the ledger took 15-18 s at 224 MB, 8.7 s at 240 MB, 9.4-10.6 s at 256 MB and
 * 9.1-9.7 s at 320 MB, and the tax files' rows ran out of 224 MB (exit 1) and took 62 s in all at 320 MB
 * (docs/performance.md, "Completeness"). The plausibility findings of an export's range too: a busy year's ran
 * out of 224 MB in run year-end (exit 1). A nightly's incremental transform, and an export without tax files, stay
 * at the warehouse's budget.
 */
export const DEFAULT_WHOLE_LEDGER_MEMORY_LIMIT = '320MB';

/** The user's budget for every stage, when LEDGERPIPE_MEMORY_LIMIT sets one. */
const userBudget = (): string | undefined => process.env['LEDGERPIPE_MEMORY_LIMIT'];

/** The budget a warehouse opens with: the caller's, else LEDGERPIPE_MEMORY_LIMIT, else the default. */
export function memoryBudget(option?: string): string {
  return option ?? userBudget() ?? DEFAULT_MEMORY_LIMIT;
}

/** The budget extraction runs within: LEDGERPIPE_MEMORY_LIMIT when set, else the extraction default. */
export function extractionMemoryBudget(): string {
  return userBudget() ?? DEFAULT_EXTRACTION_MEMORY_LIMIT;
}

/** The budget of work over the whole ledger at once: LEDGERPIPE_MEMORY_LIMIT when set, else its default. */
export function wholeLedgerMemoryBudget(): string {
  return userBudget() ?? DEFAULT_WHOLE_LEDGER_MEMORY_LIMIT;
}

/** The budget the summary after a transform reads within: LEDGERPIPE_MEMORY_LIMIT when set, else its default. */
export function summaryMemoryBudget(): string {
  return userBudget() ?? DEFAULT_SUMMARY_MEMORY_LIMIT;
}

/** The budgets in words, for messages: one when LEDGERPIPE_MEMORY_LIMIT is set, else both defaults. */
export function describeMemoryBudget(): string {
  return userBudget() ?? `${DEFAULT_MEMORY_LIMIT}, ${DEFAULT_EXTRACTION_MEMORY_LIMIT} while extracting`;
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/**
 * The budget to try after running out of `budget`: twice it, in MB or GB, e.g. 224MB -> 448MB, 512MB -> 1024MB,
 * 1.5GB -> 3GB, 1GiB -> 2148MB. Undefined for a size written in a form this does not read (DuckDB reads more).
 */
export function doubledMemoryBudget(budget: string): string | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*$/i.exec(budget);
  if (!match) return undefined;
  const megabytes = Math.ceil(
    (Number(match[1]) * (SIZE_UNITS[(match[2] as string).toLowerCase()] as number) * 2) / 1e6,
  );
  return megabytes >= 1000 && megabytes % 100 === 0 ? `${megabytes / 1000}GB` : `${megabytes}MB`;
}

/**
 * What to do after running out of memory, for messages: the LEDGERPIPE_MEMORY_LIMIT to run with, twice the
 * budget of the stage that ran out (the transform's, the larger, when the defaults are in force).
 */
export function memoryAdvice(): string {
  const budget = userBudget() ?? DEFAULT_MEMORY_LIMIT;
  const doubled = doubledMemoryBudget(budget);
  return doubled === undefined
    ? `run again with LEDGERPIPE_MEMORY_LIMIT set to a size larger than ${budget}, such as 1GB`
    : `run again with LEDGERPIPE_MEMORY_LIMIT=${doubled} (twice the budget)`;
}

/** Whether DuckDB failed for want of memory within its budget. */
export function isOutOfMemory(error: unknown): boolean {
  return /Out of Memory Error/i.test(error instanceof Error ? error.message : String(error));
}
