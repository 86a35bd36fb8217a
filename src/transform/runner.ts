import type { DuckDBConnection } from '@duckdb/node-api';
import { CheckError } from '../errors/check-error.js';
import { packageRoot } from '../util/package-root.js';
import { ident, literal } from '../duckdb/quote.js';
import { forgetParams, param, runModel, sqlGraph, withParams, type SqlFile } from '../warehouse/sql-graph.js';
import { withSettings, withSettingsOn } from '../duckdb/session.js';
import { COMPLETENESS_FOLDER, RAW_MADE_MODELS, transformFiles } from '../warehouse/sql-files.js';
import { describeWarehouse } from '../warehouse/dictionary.js';
import { wholeLedgerMemoryBudget } from '../duckdb/memory-budget.js';
import { ensureTyped, TYPED_STREAMS } from '../warehouse/typed-at-load.js';
import { makeValueViews } from '../warehouse/values.js';
import {
  forgetVersion,
  readRecordedVersions,
  recordVersions,
  releaseVersions,
  userCatalogFile,
  type ReleaseVersions,
} from '../warehouse/versions.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { runChecks } from './checks.js';
import { MOVED_ROWS_MAX, pendingStreams, updateLedger, type LedgerUpdate, type UpdateResult } from './incremental.js';
import { planLedger, type LedgerPlan } from './plan.js';
import { Steps, type Step } from './steps.js';

export interface TransformReport {
  /** Each SQL file run, with how long it took. */
  files: Step[];
  /** Each check run, with how long it took; all passed, or the transform would have thrown. */
  checks: Step[];
  /** The version of the type catalog the ledger was booked with (ReleaseVersions.catalog). */
  catalogVersion: string;
  /**
   * Whether the ledger was made whole, and why; or brought up to date with the records loaded since the last transform.
   */
  mode: { full: true; why: string } | { full: false; update: LedgerUpdate };
}

export interface TransformOptions {
  /** Type every record again from raw_records, and make the whole ledger (`transform --full`). */
  full?: boolean;
  /** The most ledger rows an incremental transform moves to keep the ledger in the exports' order (MOVED_ROWS_MAX). */
  movedRowsMax?: number;
  clock?: () => number;
  now?: () => number;
}

/** What a transform works with: this release's SQL and versions, its options, and its steps as it takes them. */
interface Context {
  release: ReleaseVersions;
  files: readonly SqlFile[];
  checks: readonly SqlFile[];
  options: TransformOptions;
  steps: Steps;
  now: () => number;
}

/**
 * Makes the models from `raw_records` (docs/transform.md), in one transaction with the checks of
 * `sql/checks/`: rolled back whole (keeping the previous tables) when a file fails or a check finds a problem.
 * Typing again from raw_records (ensureTyped) comes first, in a transaction of its own: rows typed from
 * raw_records by the typing recorded with them are right whatever becomes of the ledger, and the ledger made in a
 * transaction that also retyped 983k fills took 4.6 s against 3.0 s (docs/performance.md, "Memory"). A transform
 * killed between the two leaves the ledger of the models recorded before, which the next transform makes again.
 *
 * Incremental by default: the records typed at load are already in their typed tables, of which the models are
 * views, and only the ledger rows of the records loaded since the last transform are made again (updateLedger),
 * checked over those rows. planLedger says when the whole ledger is made again, and checked whole.
 *
 * @example
 * const report = await runTransforms(warehouse);
 * for (const f of report.files) log.info(`${f.name} ${f.ms} ms`);
 */
export async function runTransforms(
  warehouse: Pick<Warehouse, 'transaction' | 'exclusive' | 'withMemoryLimit'>,
  options: TransformOptions = {},
): Promise<TransformReport> {
  const steps = new Steps(options.clock ?? (() => performance.now()));
  const context: Context = {
    release: await releaseVersions(),
    files: await transformFiles(),
    checks: (await sqlGraph()).folder('checks'),
    options,
    steps,
    now: options.now ?? Date.now,
  };
  // Set and put back outside the transactions, which a failed statement leaves refusing all but their rollback.
  return withSettingsOn(
    (run) => warehouse.exclusive(run),
    { preserve_insertion_order: false },
    async () => {
      const retyped = await steps.time('typed tables', () =>
        warehouse.transaction((c) => ensureTyped(c, context.release.typing, context.now(), options.full === true)),
      );
      if (retyped.length > 0 && options.full !== true) steps.note(`typed again: ${retyped.join(', ')}`);
      try {
        // The process holds the warehouse's lock and this queue: what the plan reads here, the transaction finds.
        const plan = planLedger(await warehouse.exclusive(readRecordedVersions), context.release, {
          full: options.full === true,
          retyped,
        });
        const transform = () => warehouse.transaction((c) => transformIn(c, plan, context));
        // The whole ledger's sort in the exports' order spills within the warehouse's budget (wholeLedgerMemoryBudget).
        return await (plan.full ? warehouse.withMemoryLimit(wholeLedgerMemoryBudget(), transform) : transform());
      } finally {
        // A variable outlives a rolled-back transaction, which refused its reset: the next transform of this process
        // must not read it.
        await warehouse.exclusive(forgetParams).catch(() => undefined);
      }
    },
  );
}

/**
 * The transform's transaction: the models, the ledger (whole or incremental), the views of values with the fiat
 * and time zone they were last made with (when made whole), the checks.
 */
async function transformIn(c: DuckDBConnection, plan: LedgerPlan, context: Context): Promise<TransformReport> {
  const { steps, release } = context;
  // The seeds' CSV paths are relative to ledgerpipe's folder; the user's catalog file is named by a variable. The
  // holdings are those of the runs' ranges and snapshots, no instant asked for besides (ensureHoldingsAt).
  const params = { lp_user_catalog: param.text(userCatalogFile()), lp_holding_instants: param.instants(null) };
  const update = await withParams(c, params, () =>
    withSettings(c, { file_search_path: packageRoot() }, () => runFiles(c, plan, context)),
  );
  if (plan.full) await makeValueViews(c);
  const problems = update === undefined ? await runChecks(c, context.checks, steps) : update.problems;
  if (problems.length > 0) throw new CheckError(problems);
  // The views were made again: their comments with them (docs/querying.md).
  if (plan.full) await describeWarehouse(c);
  await c.run('DELETE FROM pending_changes');
  await recordVersions(
    c,
    { catalog: release.catalog, models: release.models, ...(plan.full ? { ledgerOrder: release.models } : {}) },
    context.now(),
  );
  if (update !== undefined && !update.inOrder) await forgetVersion(c, 'ledgerOrder');
  return {
    files: steps.files,
    checks: steps.checks,
    catalogVersion: release.catalog,
    mode: plan.full
      ? plan
      : { full: false, update: update?.update ?? { changed: 0, rebooked: 0, deleted: 0, inserted: 0 } },
  };
}

/**
 * Runs the transform's files in order: every one when the ledger is made whole. An incremental transform runs
 * only what depends on the records loaded since the last: the models made from raw_records whose stream has such
 * records (each reads raw_records, which over a history of 3M fills took 0.4 s and brought 250 MB of its blocks
 * into memory for 33k advertisements), and the ledger's rows of those records (updateLedger), whose result this
 * returns. The rest (the catalog, the views, the values) is what the last whole transform made: the models'
 * version it recorded is this release's (planLedger), so the same files would make the same.
 */
async function runFiles(c: DuckDBConnection, plan: LedgerPlan, context: Context): Promise<UpdateResult | undefined> {
  if (plan.full) {
    await dropEarlierModelTables(c);
    for (const file of context.files) await context.steps.time(file.name, () => runModel(c, file.name));
    return undefined;
  }
  const pending = await pendingStreams(c);
  for (const model of RAW_MADE_MODELS.filter((m) => pending.has(m.stream)))
    await context.steps.time(model.file, () => runModel(c, model.file));
  const inOrder = (await readRecordedVersions(c)).ledgerOrder === context.release.models;
  const result = await updateLedger(c, {
    checks: context.checks,
    steps: context.steps,
    inOrder,
    movedRowsMax: context.options.movedRowsMax ?? MOVED_ROWS_MAX,
  });
  // The holdings are a table over the whole ledger and the snapshots: made again when records came in (the views
  // read what is there). Nothing loaded since the last transform: nothing they depend on changed.
  if (pending.size > 0) {
    for (const file of context.files.filter((f) => f.name.startsWith(`${COMPLETENESS_FOLDER}/`)))
      await context.steps.time(file.name, () => runModel(c, file.name));
  }
  return result;
}

/**
 * Drops the tables earlier releases made of the models that are now views on their typed tables (the typed
 * streams' models), so that the generated models file can make the views: in the transform's transaction, so that
 * a warehouse keeps its tables until the views replace them.
 */
async function dropEarlierModelTables(c: DuckDBConnection): Promise<void> {
  const models = TYPED_STREAMS.map(literal).join(', ');
  const tables = (
    await c.runAndReadAll(
      `SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND table_name IN (${models})`,
    )
  ).getRows();
  for (const [name] of tables) await c.run(`DROP TABLE ${ident(String(name))}`);
}
