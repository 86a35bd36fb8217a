import { Agent, request, type Dispatcher } from 'undici';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { PlatformError } from '../errors/platform-error.js';
import { TransportError } from '../errors/transport-error.js';
import type { Credentials } from './credentials.js';
import { redactor, redactStrings } from './redact.js';
import { envelopeSchema, serverTimeSchema, SUCCESS_CODE } from './envelope.js';
import { canonicalQuery, sign } from './signing.js';

export interface ClientTimeouts {
  /** TCP (and TLS) connect. */
  connectMs: number;
  /** From request sent to response headers. */
  headersMs: number;
  /** Between body chunks. */
  bodyMs: number;
  /** The whole attempt; undici's own timers are coarse (about a second), this one is exact. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: ClientTimeouts = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  totalMs: 45_000,
};

/**
 * The largest answer read: 16 MiB. The largest page of any record endpoint (500 tax records, 100 fills with
 * their fee details, 20 advertisements) is well under 1 MiB; a larger answer is a server gone wrong, and
 * reading it whole would only fill memory (docs/performance.md, "Memory").
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface SignedClientOptions {
  baseUrl: string;
  credentials: Credentials;
  /** Local clock, Unix ms (default Date.now). Signing adds the offset learned from the server. */
  clock?: () => number;
  timeouts?: Partial<ClientTimeouts>;
  /** Connections kept open to the platform (default 64: more than the workers of every stream together). */
  connections?: number;
  /** For tests: a dispatcher to send through instead of a new Agent. */
  dispatcher?: Dispatcher;
  /** The largest answer read (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

export interface GetOptions {
  /** false: sent without the ACCESS headers (the public market endpoints). Default true. */
  signed?: boolean;
  /**
   * Called once when the request is written to a connection: the moment the platform's window starts to count
   * it, which can be later than the call (a connection still to open, an event loop busy). Not called when the
   * request never leaves.
   */
  onSent?: () => void;
}

/**
 * A read-only signed client: it can only send GET. One call is one attempt with a fresh timestamp and
 * signature; retrying, pacing and clock sync are the caller's (see `retry.ts`).
 */
export interface SignedClient {
  /** GET `path` with `params`; resolves to the envelope's `data` when the code is `00000`. */
  get(path: string, params?: Readonly<Record<string, string | undefined>>, options?: GetOptions): Promise<unknown>;
  /** Reads the server's clock and signs with its offset from now on; resolves to the offset in ms. */
  syncTime(): Promise<number>;
  /** Server time minus local time, as last measured. */
  readonly offsetMs: number;
  close(): Promise<void>;
}

/** The base URL without any user:password part, for messages. */
function printable(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.origin;
  } catch {
    return '<invalid base URL>';
  }
}

function networkError(error: unknown, where: string, baseUrl: string, timeoutMs: number): TransportError {
  const e = error as { code?: unknown; name?: string; cause?: { code?: unknown } };
  // DOMException-style errors (AbortSignal.timeout) carry a numeric code; only string codes name the failure.
  const code = [e.code, e.cause?.code, e.name].find((c): c is string => typeof c === 'string') ?? 'UNKNOWN';
  if (code === 'ECONNREFUSED') {
    return new TransportError(
      `nothing answers at ${printable(baseUrl)} (connection refused); check --base-url and that the service is up`,
      'LP_NET_REFUSED',
      { cause: error },
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new TransportError(
      `cannot resolve the host of ${printable(baseUrl)}; check --base-url and DNS`,
      'LP_NET_DNS',
      { cause: error },
    );
  }
  if (e.name === 'TimeoutError')
    return new TransportError(`${where}: no answer within ${timeoutMs} ms`, 'LP_NET_TIMEOUT', { cause: error });
  if (code.includes('TIMEOUT'))
    return new TransportError(`${where}: no answer in time (${code})`, 'LP_NET_TIMEOUT', { cause: error });
  return new TransportError(`${where}: connection failed (${code})`, 'LP_NET_FAILED', { cause: error });
}

/** A size for messages: "16 MiB", or "1000 bytes" below a mebibyte. */
const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/**
 * Reads a body to its end as UTF-8, stopping (and dropping the connection) as soon as it passes `max` bytes,
 * or before reading at all when its declared length does.
 */
async function readCapped(res: Dispatcher.ResponseData, max: number, where: string): Promise<string> {
  const tooLarge = () => {
    res.body.destroy();
    return new TransportError(
      `${where}: the answer is larger than ${size(max)}, the most ledgerpipe reads (a page of records is well under 1 MiB), so it was not read; the server is misbehaving`,
      'LP_BODY_TOO_LARGE',
      { retryable: false },
    );
  };
  if (Number(res.headers['content-length'] ?? 0) > max) throw tooLarge();
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    read += chunk.length;
    if (read > max) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, read).toString('utf8');
}

/** The connection pool of a client given no dispatcher. */
function ownAgent(timeouts: ClientTimeouts, connections: number | undefined): Agent {
  return new Agent({
    // A request waiting for a free connection would leave later than its limiter slot: enough for all.
    connections: connections ?? 64,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: 30_000,
  });
}

/** The headers of a GET: the four ACCESS headers when `signedAt` (a timestamp) is given, else none of them. */
function requestHeaders(
  credentials: Credentials,
  signedAt: string | undefined,
  path: string,
  query: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', locale: 'en-US' };
  if (signedAt === undefined) return headers;
  headers['ACCESS-KEY'] = credentials.apiKey;
  headers['ACCESS-PASSPHRASE'] = credentials.passphrase;
  headers['ACCESS-TIMESTAMP'] = signedAt;
  headers['ACCESS-SIGN'] = sign(credentials.secretKey, {
    timestamp: signedAt,
    method: 'GET',
    requestPath: path,
    queryString: query,
  });
  return headers;
}

/**
 * An undici handler that says when its request is written: undici calls `onRequestStart` just before it writes
 * the request line on the connection it was given (undici/lib/dispatcher/client-h1.js, `writeH1`). The other
 * calls go through unchanged.
 */
class SentHandler implements Dispatcher.DispatchHandler {
  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly onSent: () => void,
  ) {}
  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.onSent();
    this.inner.onRequestStart?.(controller, context);
  }
  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    this.inner.onRequestUpgrade?.(...args);
  }
  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    this.inner.onResponseStart?.(...args);
  }
  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>): void {
    this.inner.onResponseData?.(...args);
  }
  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    this.inner.onResponseEnd?.(...args);
  }
  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseError']>>): void {
    this.inner.onResponseError?.(...args);
  }
}

/** `dispatcher`, with `onSent` told when each request it carries is written. */
const markingSent = (dispatcher: Dispatcher, onSent: () => void): Dispatcher =>
  dispatcher.compose((dispatch) => (opts, handler) => dispatch(opts, new SentHandler(handler, onSent)));

interface AnswerSource {
  base: string;
  dispatcher: Dispatcher;
  timeouts: ClientTimeouts;
  maxBodyBytes: number;
  redact: (text: string) => string;
}

/** One answer, its text capped and redacted; a redirect is not followed but said, as a --base-url to check. */
async function fetchAnswer(
  source: AnswerSource,
  where: string,
  url: string,
  headers: Record<string, string>,
  onSent?: () => void,
): Promise<{ status: number; text: string }> {
  let status: number;
  let text: string;
  let location: string | undefined;
  try {
    const dispatcher = onSent === undefined ? source.dispatcher : markingSent(source.dispatcher, onSent);
    const res = await request(url, {
      method: 'GET',
      headers,
      dispatcher,
      signal: AbortSignal.timeout(source.timeouts.totalMs),
    });
    status = res.statusCode;
    const header = res.headers['location'];
    location = header === undefined ? undefined : source.redact(String(header));
    text = source.redact(await readCapped(res, source.maxBodyBytes, where));
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw networkError(error, where, source.base, source.timeouts.totalMs);
  }
  if (status >= 300 && status < 400) {
    // Not followed: a request signed for one address is not sent to another, and the platform never redirects.
    throw new LedgerpipeError(
      `${where}: ${printable(source.base)} answered HTTP ${status}, a redirect${location === undefined ? '' : ` to ${location}`}, which ledgerpipe does not follow; check --base-url: give the API address the platform documents, with its scheme (https)`,
      { code: 'LP_REDIRECT', exit: 'usage' },
    );
  }
  return { status, text };
}

/** The `data` of a successful envelope (HTTP 200 and code 00000); anything else is the error it is. */
function readEnvelope(
  answer: { status: number; text: string },
  path: string,
  redact: (text: string) => string,
): unknown {
  const { status, text } = answer;
  let json: unknown;
  try {
    json = JSON.parse(text);
    // A \u escape may spell a secret: the parsed strings then go through the redaction too.
    if (text.includes('\\u')) json = redactStrings(json, redact);
  } catch (error) {
    throw new TransportError(
      `GET ${path}: HTTP ${status} with a body that is not JSON (${text.length} bytes)`,
      'LP_BAD_BODY',
      { cause: error },
    );
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success)
    throw new TransportError(
      `GET ${path}: HTTP ${status} with JSON that is not the platform's envelope`,
      'LP_BAD_ENVELOPE',
    );
  const envelope = parsed.data;
  if (envelope.code !== SUCCESS_CODE || status !== 200) {
    throw new PlatformError({
      path,
      httpStatus: status,
      platformCode: envelope.code,
      platformMessage: envelope.msg ?? '',
    });
  }
  return envelope.data;
}

/**
 * @example
 * const client = createSignedClient({ baseUrl: 'https://api.example.com', credentials });
 * await client.syncTime();
 * const data = await client.get('/api/v2/spot/wallet/withdrawal-records', { startTime: '0', endTime: '1' });
 */
export function createSignedClient(options: SignedClientOptions): SignedClient {
  const clock = options.clock ?? Date.now;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const base = options.baseUrl.replace(/\/+$/, '');
  const ownDispatcher = options.dispatcher === undefined ? ownAgent(timeouts, options.connections) : undefined;
  const dispatcher = options.dispatcher ?? (ownDispatcher as Agent);
  // Everything the server says passes through this before it is parsed, logged, stored or printed.
  const redact = redactor([options.credentials.apiKey, options.credentials.secretKey, options.credentials.passphrase]);
  const answers = { base, dispatcher, timeouts, maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES, redact };
  let offsetMs = 0;

  const get = async (
    path: string,
    params: Readonly<Record<string, string | undefined>> = {},
    opts: GetOptions = {},
  ) => {
    const query = canonicalQuery(params);
    // A fresh timestamp and signature on every attempt: a retried request with an old one would be refused.
    const signedAt = opts.signed === false ? undefined : String(Math.round(clock() + offsetMs));
    const headers = requestHeaders(options.credentials, signedAt, path, query);
    const answer = await fetchAnswer(
      answers,
      `GET ${path}`,
      `${base}${path}${query === '' ? '' : `?${query}`}`,
      headers,
      opts.onSent,
    );
    return readEnvelope(answer, path, redact);
  };

  return {
    get,
    get offsetMs() {
      return offsetMs;
    },
    syncTime: async () => {
      const sent = clock();
      const data = serverTimeSchema.safeParse(await get('/api/v2/public/time', {}, { signed: false }));
      const received = clock();
      if (!data.success) throw new TransportError('GET /api/v2/public/time: answer without serverTime', 'LP_BAD_BODY');
      offsetMs = Number(data.data.serverTime) - (sent + received) / 2;
      return offsetMs;
    },
    close: async () => {
      await ownDispatcher?.close();
    },
  };
}
