import { computeGains, type GainsResult } from '../gains/gains.js';
import type { Settings } from '../tables/settings.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/**
 * How far past a range its gains read: the UK rules match a disposal with the acquisitions of the 30 days after it
 * (HMRC CRYPTO22256, "bed and breakfasting"), so a UK run reads and computes 30 days past its range, and a later
 * run that reads them too finds the same disposals; other methods never look ahead.
 *
 * @example
 * lookAhead({ costBasis: 'uk' }); // 2_592_000_000 (30 days)
 */
export function lookAhead(settings: Pick<Settings, 'costBasis'>): number {
  return settings.costBasis === 'uk' ? 30 * DAY_MS : 0;
}

const DAY_MS = 86_400_000;

/**
 * Realized gains up to `end` (docs/gains.md): the tables disposals and lots, by the warehouse's cost basis. The UK
 * rules read the 30 days after it too (lookAhead), whose acquisitions match its last disposals.
 *
 * @example
 * const gains = await gainsStage(warehouse, settings, period.window.end);
 */
export async function gainsStage(
  warehouse: Warehouse,
  settings: Settings,
  end: number | undefined,
): Promise<GainsResult> {
  const ahead = lookAhead(settings);
  const until = end === undefined ? {} : ahead === 0 ? { until: end } : { until: end + ahead, openAt: end };
  const gains = {
    costBasis: settings.costBasis,
    pool: settings.pool,
    taxYearStart: settings.taxYearStart,
    withdrawals: settings.withdrawals,
    timeZone: settings.timeZone,
    ...until,
  };
  return warehouse.exclusive((c) => computeGains(c, gains));
}
