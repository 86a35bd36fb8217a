import type { DuckDBConnection } from '@duckdb/node-api';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { TransportError } from '../errors/transport-error.js';
import { publicGet, type PublicAnswer } from '../http/public-get.js';
import { packageVersion } from '../util/package-root.js';
import { runModel } from '../warehouse/sql-graph.js';
import { timestampTz } from '../duckdb/time-values.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { parseEcbCsv } from './ecb-csv.js';

/**
 * The ECB data portal's web service (https://data.ecb.europa.eu/help/api/data: "The web service entry point is ...
 * data-api.ecb.europa.eu/service/"). --ecb-url or LEDGERPIPE_ECB_URL give another (a mirror, a proxy, a test's fake).
 */
export const DEFAULT_ECB_URL = 'https://data-api.ecb.europa.eu/service';

/**
 * How many days before the first day needed are read too: a day with no rate (a weekend, a TARGET holiday) takes
 * the last rate before it, which must then be known. The longest stretch without one is four days (Good Friday to
 * Easter Monday); a week is enough.
 */
export const LOOK_BACK_DAYS = 7;

const DAY_MS = 86_400_000;
const SOURCE = 'ecb';
const ATTEMPTS = 3;

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (ms: number): string => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
const addDays = (day: string, n: number): string => utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);

export interface EcbReadOptions {
  warehouse: Warehouse;
  /** The web service's entry point (DEFAULT_ECB_URL). */
  baseUrl: string;
  currency: string;
  /** The first and last day (UTC, YYYY-MM-DD, both included) whose movements need a rate. */
  days: { first: string; last: string };
  now: number;
  /** One GET (default: publicGet). */
  get?: (url: string) => Promise<PublicAnswer>;
  sleep?: (ms: number) => Promise<void>;
}

export interface EcbRead {
  requests: number;
  /** Rates read now (days with a published rate). */
  rates: number;
}

/** The spans of `currency` already read, as [first, last] days. */
async function coveredSpans(c: DuckDBConnection, currency: string): Promise<[string, string][]> {
  const reader = await c.runAndReadAll(
    "SELECT strftime(first_date, '%Y-%m-%d'), strftime(last_date, '%Y-%m-%d') FROM fx_coverage WHERE currency = $currency AND source = $source ORDER BY first_date",
    { currency, source: SOURCE },
  );
  return reader.getRows().map((r) => [String(r[0]), String(r[1])]);
}

/** The stretches of [first, last] no span covers, oldest first. */
export function unreadStretches(first: string, last: string, covered: readonly [string, string][]): [string, string][] {
  const stretches: [string, string][] = [];
  let from = first;
  for (const [a, b] of [...covered].sort(([x], [y]) => x.localeCompare(y))) {
    if (from > last) break;
    if (b < from) continue;
    if (a > from) stretches.push([from, a <= last ? addDays(a, -1) : last]);
    if (b >= from) from = addDays(b, 1);
  }
  if (from <= last) stretches.push([from, last]);
  return stretches;
}

/** The address of one currency's daily series for [first, last], as the ECB's "Data examples" page builds it. */
export function ecbSeriesUrl(baseUrl: string, currency: string, first: string, last: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/data/EXR/D.${currency}.EUR.SP00.A?startPeriod=${first}&endPeriod=${last}&format=csvdata`;
}

/**
 * The rates of one stretch. The ECB answers 404 "No results found" for a period without an observation (its
 * "Status codes" page, https://data.ecb.europa.eu/help/api/status-codes): no rate, not a failure. 429, 5xx, a
 * timeout or a reset connection are tried again twice, a second and then two apart; a redirect is not followed.
 */
async function readStretch(
  options: EcbReadOptions,
  url: string,
): Promise<{ text: string | undefined; requests: number }> {
  // text/csv: the CSV of the ECB's content negotiation (https://data.ecb.europa.eu/help/api/content-negotiation), as
  // format=csvdata asks too; the agent says who asks.
  const headers = { accept: 'text/csv', 'user-agent': `ledgerpipe/${packageVersion()}` };
  const get =
    options.get ?? ((u: string) => publicGet(u, { service: 'the ECB (--ecb-url, LEDGERPIPE_ECB_URL)', headers }));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await get(url);
      if (answer.status === 200) return { text: answer.text, requests: attempt };
      if (answer.status === 404) return { text: undefined, requests: attempt };
      const retryable = answer.status === 429 || answer.status >= 500;
      const what =
        answer.status >= 300 && answer.status < 400
          ? 'a redirect, not followed; check --ecb-url'
          : answer.text.trim().slice(0, 120).replace(/\s+/g, ' ');
      throw new TransportError(`GET ${url.split('?')[0]}: HTTP ${answer.status} (${what})`, 'LP_ECB_HTTP', {
        retryable,
      });
    } catch (error) {
      // Nothing listening, or no such host: a second later is no different (a machine offline fails at once).
      const unreachable =
        error instanceof LedgerpipeError && (error.code === 'LP_NET_REFUSED' || error.code === 'LP_NET_DNS');
      if (!(error instanceof LedgerpipeError) || !error.retryable || unreachable || attempt >= ATTEMPTS) throw error;
      await sleep(1000 * attempt);
    }
  }
}

/**
 * Reads the ECB's euro reference rates of `currency` for `days` into fx_rates (docs/values.md, "A fiat"): the days
 * not read before, with LOOK_BACK_DAYS before the first, one request per unread stretch, each answer's rates, the
 * days it covers (fx_coverage) and the rate of each day read (fx_rates_daily) committed together, so a day is never
 * read twice and a killed run loses nothing.
 * Days after the last one over (UTC) are asked but not recorded as read: today's rate may come later. A stretch
 * that cannot be read throws, the stretches before it kept: the caller warns and the days without a rate stay
 * without a value.
 *
 * @example
 * await readEcbRates({ warehouse, baseUrl: DEFAULT_ECB_URL, currency: 'GBP', days: { first: '2025-01-01', last: '2025-12-31' }, now: Date.now() });
 */
export async function readEcbRates(options: EcbReadOptions): Promise<EcbRead> {
  const { warehouse, currency, now } = options;
  const today = utcDay(now);
  const first = addDays(options.days.first, -LOOK_BACK_DAYS);
  const last = options.days.last < today ? options.days.last : today;
  const covered = await warehouse.exclusive((c) => coveredSpans(c, currency));
  const read: EcbRead = { requests: 0, rates: 0 };
  for (const [a, b] of unreadStretches(first, last, covered)) {
    const url = ecbSeriesUrl(options.baseUrl, currency, a, b);
    const answer = await readStretch(options, url);
    read.requests += answer.requests;
    const rates =
      answer.text === undefined ? [] : parseEcbCsv(answer.text, currency).filter((r) => r.date >= a && r.date <= b);
    // The days over: up to yesterday, or today too once its rate is published.
    const through = rates.some((r) => r.date === today) ? b : b < today ? b : addDays(today, -1);
    await warehouse.transaction(async (c) => {
      for (const r of rates) {
        await c.run(
          'INSERT OR IGNORE INTO fx_rates VALUES (CAST($date AS DATE), $currency, lp_amount($rate), $source)',
          { date: r.date, currency, rate: r.rate, source: SOURCE },
        );
      }
      if (through >= a) {
        await c.run(
          'INSERT INTO fx_coverage VALUES ($currency, $source, CAST($first AS DATE), CAST($last AS DATE), $rates, $url, $now)',
          {
            currency,
            source: SOURCE,
            first: a,
            last: through,
            rates: rates.filter((r) => r.date <= through).length,
            url,
            now: timestampTz(now),
          },
        );
      }
      // The rate of each day read, made again with what this answer brought (sql/load/fx_rates_daily.sql).
      await runModel(c, 'load/fx_rates_daily.sql');
    });
    read.rates += rates.length;
  }
  return read;
}
