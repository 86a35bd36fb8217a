import { z } from 'zod';
import { TransportError } from '../errors/transport-error.js';
import { decimalString } from '../streams/fields.js';

/** One published rate: units of the currency for 1 EUR on `date` (YYYY-MM-DD), as the ECB wrote it. */
export interface EcbRate {
  date: string;
  rate: string;
}

/**
 * The cells of an RFC 4180 text, row by row: quoted cells may hold commas (TITLE_COMPL does: "ECB reference exchange
 * rate, US dollar/Euro, 2.15 pm (C.E.T.)") and doubled quotes; rows end with CRLF, as the ECB sends them, or LF.
 */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** The columns read, as the ECB's SDMX CSV (`format=csvdata`) names them. */
const rowSchema = z.object({
  FREQ: z.literal('D'),
  CURRENCY: z.string(),
  CURRENCY_DENOM: z.literal('EUR'),
  TIME_PERIOD: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'not a day (YYYY-MM-DD)'),
  // Empty or NaN: the series has no value that day (the ECB marks such days; they are rare in the daily series).
  OBS_VALUE: z.union([
    z.literal(''),
    z.literal('NaN'),
    decimalString.refine((v) => /[1-9]/.test(v) && !v.startsWith('-'), 'not a positive rate'),
  ]),
});

/**
 * The daily rates of `currency` in an answer of the ECB's data portal to
 * `GET /service/data/EXR/D.<currency>.EUR.SP00.A?format=csvdata` (https://data.ecb.europa.eu/help/api/data): a header
 * row (KEY, FREQ, CURRENCY, CURRENCY_DENOM, EXR_TYPE, EXR_SUFFIX, TIME_PERIOD, OBS_VALUE, then the attributes), then
 * one row per day with a rate; a real answer is kept in test/fixtures/ecb/. Days without a value are left out. A row
 * of another series or a value that is not a plain positive decimal is refused with its line: a rate is never read
 * from something it cannot be.
 *
 * @example
 * parseEcbCsv('KEY,FREQ,CURRENCY,CURRENCY_DENOM,TIME_PERIOD,OBS_VALUE\r\nEXR.D.GBP.EUR.SP00.A,D,GBP,EUR,2024-06-03,0.85175\r\n', 'GBP');
 * // [{ date: '2024-06-03', rate: '0.85175' }]
 */
export function parseEcbCsv(text: string, currency: string): EcbRate[] {
  const [header, ...body] = csvRows(text.replace(/^\uFEFF/, ''));
  const bad = (what: string) =>
    new TransportError(
      `the ECB's answer for ${currency} ${what}; it is not the ECB's daily euro rates (format=csvdata)`,
      'LP_ECB_BAD_CSV',
      { retryable: false },
    );
  if (header === undefined) throw bad('is empty');
  const missing = Object.keys(rowSchema.shape).filter((name) => !header.includes(name));
  if (missing.length > 0) throw bad(`has no column ${missing.join(', ')}`);
  const rates: EcbRate[] = [];
  const seen = new Set<string>();
  body.forEach((cells, i) => {
    const parsed = rowSchema.safeParse(Object.fromEntries(header.map((name, j) => [name, cells[j] ?? ''])));
    if (!parsed.success)
      throw bad(
        `line ${i + 2}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
      );
    const row = parsed.data;
    if (row.CURRENCY !== currency) throw bad(`line ${i + 2}: a rate of ${row.CURRENCY}`);
    if (Number.isNaN(Date.parse(`${row.TIME_PERIOD}T00:00:00Z`)))
      throw bad(`line ${i + 2}: ${row.TIME_PERIOD} is not a day`);
    if (seen.has(row.TIME_PERIOD)) throw bad(`line ${i + 2}: a second rate for ${row.TIME_PERIOD}`);
    seen.add(row.TIME_PERIOD);
    if (row.OBS_VALUE === '' || row.OBS_VALUE === 'NaN') return;
    rates.push({ date: row.TIME_PERIOD, rate: row.OBS_VALUE });
  });
  return rates.sort((a, b) => a.date.localeCompare(b.date));
}
