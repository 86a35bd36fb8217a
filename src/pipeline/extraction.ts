import type { IpBudget } from '../extract/ip-budget.js';
import type { ProgressReporter } from '../extract/progress.js';
import type { PriceResult } from '../prices/extract-prices.js';
import { assetBalances } from '../streams/asset-balances.js';
import { STREAMS } from '../streams/index.js';
import type { StreamDef } from '../streams/stream.js';
import type { Window } from '../time/window.js';
import { extractionMemoryBudget } from '../duckdb/memory-budget.js';
import { withCheckpointsBetweenBatches } from '../load/raw-writer.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { Pipeline } from './define.js';
import { extractAccounts, incompleteReason, type AccountResult } from './extract-stage.js';
import { pricesBeside, type EarlyPrices } from './prices-stage.js';
import { priceBaseUrl, valuationOf, type Run } from './run.js';

/** What the extract stage made: each account's extraction (with its row in `runs`), and the candles read beside it. */
export interface Extracted {
  accounts: AccountResult[];
  /** Why the extraction is incomplete (exit 4: quarantined records, streams not read), when it is. */
  incomplete: string | undefined;
  /** The candles read beside the extraction, when the run reads prices over a range known up front. */
  beside: PriceResult | undefined;
}

/**
 * The extract stage: every account side by side (pipeline/extract-stage.ts), within the extraction's memory budget.
 * With `prices` and a range known up front, candles are read beside it under the same per-IP budget, following what
 * is loaded: a balance snapshot, which says the assets held, and each page of records, whose assets are looked for
 * there (docs/values.md, "Where prices come from").
 *
 * @example
 * const extracted = await extractStage(warehouse, run, { budget, prices: plan.prices });
 */
export async function extractStage(
  warehouse: Warehouse,
  run: Run,
  context: { budget: IpBudget; prices: boolean },
): Promise<Extracted> {
  const { options } = run;
  const { budget } = context;
  const early = context.prices && run.period !== undefined ? startPricesBeside(warehouse, run, budget) : undefined;
  const progress = early === undefined ? options.progress : followedBy(options.progress, early);
  // Every run that extracts reads the history the cost basis needs (docs/history.md), `extract` alone too, so
  // that the stages run one by one hold what the pipeline would; not with the history setting none.
  const { historyFrom } = run.settings;
  const history = historyFrom === 'none' ? {} : { history: { from: historyFrom } };
  const streams = pipelineStreams(options.pipeline, options.streams);
  let accounts: AccountResult[];
  let beside: PriceResult | undefined;
  try {
    // The failure is thrown from inside, so it is the one reported even if restoring the budget fails after it.
    accounts = await warehouse.withMemoryLimit(extractionMemoryBudget(), () =>
      withCheckpointsBetweenBatches(warehouse, () =>
        extractAccounts(warehouse, { ...options, progress, ...history }, streams, budget),
      ),
    );
    progress.stop();
  } finally {
    // The candles under way are waited for, the extraction failed or not.
    beside = await early?.stop();
  }
  return { accounts, incomplete: incompleteReason(accounts), beside };
}

/** `progress`, telling the prices beside the extraction what is loaded. */
function followedBy(progress: ProgressReporter, early: EarlyPrices): ProgressReporter {
  return {
    update: (account, stream, stats, window) => {
      progress.update(account, stream, stats, window);
      if (stream === assetBalances.name) early.snapshotLoaded();
      else if (window !== undefined) early.recordsLoaded(stream, window);
    },
    stop: () => progress.stop(),
  };
}

/** The prices read beside the extraction (pricesBeside) of a run whose range is known before it extracts. */
function startPricesBeside(warehouse: Warehouse, run: Run, budget: IpBudget): EarlyPrices {
  const baseUrl = priceBaseUrl(run.options);
  const range = run.options.range as Window;
  const clock = run.options.clock ?? Date.now;
  return pricesBeside(warehouse, {
    ...valuationOf(run.settings),
    baseUrl,
    range,
    clock,
    rateScale: run.options.rateScale ?? 1,
    ipLimiter: budget.forAddress(baseUrl),
    log: run.options.log,
  });
}

/** The streams a run extracts: --streams, else the pipeline's. */
function pipelineStreams(pipeline: Pipeline, override: readonly StreamDef[] | undefined): StreamDef[] {
  if (override !== undefined) return [...override];
  return pipeline.streams === 'all'
    ? [...STREAMS]
    : STREAMS.filter((s) => (pipeline.streams as string[]).includes(s.name));
}
