import { createHmac } from 'node:crypto';

/** The parts of a request that the platform's signature covers. */
export interface SignInput {
  /** Unix milliseconds, exactly as sent in ACCESS-TIMESTAMP. */
  timestamp: string;
  /** Upper-case HTTP method. ledgerpipe only ever sends GET. */
  method: string;
  /** Path without host or query, e.g. `/api/v2/tax/margin-record`. */
  requestPath: string;
  /** Query string without the leading `?`, exactly as it goes on the URL; empty for none. */
  queryString: string;
  /** Request body; empty for GET. */
  body?: string;
}

/**
 * The string the platform signs: `timestamp + METHOD + requestPath + ("?" + query) + body`, with no `?`
 * when there is no query (docs/platform.md, "Requests and signing"). This is the only place it is built.
 *
 * @example
 * prehash({ timestamp: '1700000000000', method: 'GET', requestPath: '/api/v2/public/time', queryString: '' })
 * // => '1700000000000GET/api/v2/public/time'
 */
export function prehash(input: SignInput): string {
  const query = input.queryString === '' ? '' : `?${input.queryString}`;
  return `${input.timestamp}${input.method.toUpperCase()}${input.requestPath}${query}${input.body ?? ''}`;
}

/**
 * ACCESS-SIGN: base64 of HMAC-SHA256 over {@link prehash} with the account's secret key.
 *
 * @example
 * sign('test-secret', { timestamp: '16273667805456', method: 'GET',
 *   requestPath: '/api/mix/v2/market/depth', queryString: 'limit=20&symbol=BTCUSDT' })
 * // => 'To/xSqZkg77MdhtM0EAKhSNw+cZhrkIFETqbTFYIYg0='
 */
export function sign(secretKey: string, input: SignInput): string {
  return createHmac('sha256', secretKey).update(prehash(input)).digest('base64');
}

/**
 * Query string with keys sorted ascending, values percent-encoded; the same string goes on the URL and into
 * the signature (docs/platform.md, "Requests and signing").
 * Parameters whose value is undefined are left out.
 *
 * @example
 * canonicalQuery({ startTime: '1', limit: '100', idLessThan: undefined }) // => 'limit=100&startTime=1'
 */
export function canonicalQuery(params: Readonly<Record<string, string | undefined>>): string {
  return Object.keys(params)
    .filter((key) => params[key] !== undefined)
    .sort()
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(params[key] as string)}`)
    .join('&');
}
