import { request, type Dispatcher } from 'undici';
import { TransportError } from '../errors/transport-error.js';

/** An answer of a public service: its HTTP status and its body as text. */
export interface PublicAnswer {
  status: number;
  text: string;
}

export interface PublicGetOptions {
  /** What the service is called in messages, with the flag that sets its address: `the ECB (--ecb-url)`. */
  service: string;
  /** The whole attempt, headers and body (default 30 s). */
  timeoutMs?: number;
  /** The largest answer read (default 8 MiB). */
  maxBodyBytes?: number;
  headers?: Readonly<Record<string, string>>;
  /** For tests: a dispatcher to send through instead of undici's global one. */
  dispatcher?: Dispatcher;
}

/** The address without query or user:password, for messages. */
function printable(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '<invalid address>';
  }
}

/**
 * One GET of a public resource, without credentials, redirects not followed (a redirect's status is returned):
 * for services beside the trading platform, such as the ECB's data portal (src/prices/ecb-rates.ts), which need no
 * key and do not count against the platform's IP budget. GET is the only method: nothing is ever sent but the
 * address. A connection that fails, a timeout or an answer larger than `maxBodyBytes` is a TransportError
 * (retryable but for the size); any status is returned for the caller to read.
 *
 * @example
 * const { status, text } = await publicGet('https://data-api.ecb.europa.eu/service/data/EXR/D.GBP.EUR.SP00.A?format=csvdata', { service: 'the ECB (--ecb-url)' });
 */
export async function publicGet(url: string, options: PublicGetOptions): Promise<PublicAnswer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const max = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const where = `GET ${printable(url)}`;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { ...options.headers },
      signal: AbortSignal.timeout(timeoutMs),
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    const chunks: Buffer[] = [];
    let read = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > max) {
        res.body.destroy();
        throw new TransportError(
          `${where}: the answer is larger than ${max} bytes, more than ${options.service} sends; not read`,
          'LP_BODY_TOO_LARGE',
          { retryable: false },
        );
      }
      chunks.push(chunk);
    }
    return { status: res.statusCode, text: Buffer.concat(chunks, read).toString('utf8') };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    const e = error as { code?: unknown; name?: string; cause?: { code?: unknown } };
    const code = [e.code, e.cause?.code, e.name].find((c): c is string => typeof c === 'string') ?? 'UNKNOWN';
    if (code === 'ECONNREFUSED')
      throw new TransportError(`${where}: connection refused; check ${options.service}`, 'LP_NET_REFUSED', {
        cause: error,
      });
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new TransportError(
        `${where}: cannot resolve the host; check ${options.service} and the network`,
        'LP_NET_DNS',
        { cause: error },
      );
    if (e.name === 'TimeoutError' || code.includes('TIMEOUT'))
      throw new TransportError(`${where}: no answer within ${timeoutMs} ms`, 'LP_NET_TIMEOUT', { cause: error });
    throw new TransportError(`${where}: connection failed (${code})`, 'LP_NET_FAILED', { cause: error });
  }
}
