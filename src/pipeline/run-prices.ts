import type { IpBudget } from '../extract/ip-budget.js';
import type { Settings } from '../tables/settings.js';
import type { PriceResult } from '../prices/extract-prices.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { AccountResult } from './extract-stage.js';
import type { Extracted } from './extraction.js';
import { pricesStage, withFiguresOf } from './prices-stage.js';
import { priceBaseUrl, runRange, valuationOf, type Run } from './run.js';

/** What the prices stage made: the run's candles, and the settings as the platform's answers left them. */
export interface Priced {
  /** Every candle request of the run, those beside the extraction too. */
  prices: PriceResult;
  /** The run's settings, with how the fiat is valued as the platform decided it (docs/values.md, "A fiat"). */
  settings: Settings;
}

/**
 * The prices stage of a run, after its transform (pipeline/prices-stage.ts): over the run's range, else what its
 * extraction read, up to the platform's present as the extraction measured it; the candles read beside the
 * extraction are counted in.
 *
 * @example
 * const priced = await pricesOfRun(warehouse, run, { extracted, budget });
 */
export async function pricesOfRun(
  warehouse: Warehouse,
  run: Run,
  inputs: { extracted: Extracted | undefined; budget: IpBudget },
): Promise<Priced> {
  const { options } = run;
  const accounts = inputs.extracted?.accounts ?? [];
  const baseUrl = priceBaseUrl(options);
  const after = await pricesStage(warehouse, {
    ...valuationOf(run.settings),
    baseUrl,
    ...(options.ecbUrl === undefined ? {} : { ecbUrl: options.ecbUrl }),
    command: options.command ?? `run ${options.pipeline.name}`,
    // Its range and the days its gains look past it (lookAhead), else what its extraction read.
    range: options.range ?? runRange(run, accounts),
    ...platformPresent(accounts),
    clock: options.clock ?? Date.now,
    rateScale: options.rateScale ?? 1,
    ipLimiter: inputs.budget.forAddress(baseUrl),
    log: options.log,
  });
  const beside = inputs.extracted?.beside;
  return {
    prices: beside === undefined ? after : withFiguresOf(after, beside),
    // The platform's answers decide how a fiat without a rates file is valued: the export values it the same way.
    settings: after.fiat === undefined ? run.settings : { ...run.settings, fiatSource: after.fiat.source },
  };
}

/**
 * The platform's present as this run's extraction measured it (the latest of its accounts'), for the prices stage:
 * the platform has no candle of a later hour, as it has no record (docs/values.md, "Where prices come from").
 */
function platformPresent(accounts: readonly AccountResult[]): { present?: number } {
  return accounts.length === 0 ? {} : { present: Math.max(...accounts.map((a) => a.extract.present)) };
}
