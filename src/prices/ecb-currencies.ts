/**
 * The currencies the European Central Bank publishes a euro reference rate for (units of the currency for 1 EUR,
 * every TARGET working day at about 16:00 CET): the list of its page "Euro foreign exchange reference rates",
 * https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html, as
 * the series `EXR.D.<code>.EUR.SP00.A` of its data portal (https://data.ecb.europa.eu/help/api/data). Data, not
 * logic: the next currency the ECB adds or drops is one line here and one in docs/values.md.
 *
 * Left out on purpose: RUB, whose publication the ECB suspended after 1 March 2022, and HRK, gone with Croatia's euro
 * on 1 January 2023 (both noted on the ECB's page). BGN stays for the years it was published: the ECB took it off
 * its list when Bulgaria adopted the euro on 1 January 2026, and a day more than a week after the last published
 * rate has none (sql/load/fx_rates_daily.sql), never the last one carried on.
 */
export const ECB_CURRENCIES: readonly { code: string; name: string; until?: string }[] = [
  { code: 'USD', name: 'US dollar' },
  { code: 'JPY', name: 'Japanese yen' },
  { code: 'BGN', name: 'Bulgarian lev', until: '2025-12-31' },
  { code: 'CZK', name: 'Czech koruna' },
  { code: 'DKK', name: 'Danish krone' },
  { code: 'GBP', name: 'Pound sterling' },
  { code: 'HUF', name: 'Hungarian forint' },
  { code: 'PLN', name: 'Polish zloty' },
  { code: 'RON', name: 'Romanian leu' },
  { code: 'SEK', name: 'Swedish krona' },
  { code: 'CHF', name: 'Swiss franc' },
  { code: 'ISK', name: 'Icelandic krona' },
  { code: 'NOK', name: 'Norwegian krone' },
  { code: 'TRY', name: 'Turkish lira' },
  { code: 'AUD', name: 'Australian dollar' },
  { code: 'BRL', name: 'Brazilian real' },
  { code: 'CAD', name: 'Canadian dollar' },
  { code: 'CNY', name: 'Chinese yuan renminbi' },
  { code: 'HKD', name: 'Hong Kong dollar' },
  { code: 'IDR', name: 'Indonesian rupiah' },
  { code: 'ILS', name: 'Israeli shekel' },
  { code: 'INR', name: 'Indian rupee' },
  { code: 'KRW', name: 'South Korean won' },
  { code: 'MXN', name: 'Mexican peso' },
  { code: 'MYR', name: 'Malaysian ringgit' },
  { code: 'NZD', name: 'New Zealand dollar' },
  { code: 'PHP', name: 'Philippine peso' },
  { code: 'SGD', name: 'Singapore dollar' },
  { code: 'THB', name: 'Thai baht' },
  { code: 'ZAR', name: 'South African rand' },
];

const CODES = new Set(ECB_CURRENCIES.map((c) => c.code));

/**
 * Whether `--fiat` may value in `code` without a rates file: the euro itself (the platform's USDTEUR pair), or a
 * currency the ECB publishes a euro rate for.
 *
 * @example
 * valuedWithoutRatesFile('GBP'); // true
 * valuedWithoutRatesFile('XYZ'); // false: give --fiat-rates
 */
export function valuedWithoutRatesFile(code: string): boolean {
  return code === 'EUR' || CODES.has(code);
}

/**
 * Whether the ECB publishes a euro rate for `code` (not EUR: the base).
 *
 * @example
 * isEcbCurrency('USD'); // true
 */
export function isEcbCurrency(code: string): boolean {
  return CODES.has(code);
}
