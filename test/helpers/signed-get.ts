import { request } from 'undici';
import { canonicalQuery, sign } from '../../src/http/signing.js';
import type { Credentials } from '../../src/sim/auth.js';

export interface RawAnswer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface SignedGetOptions {
  /** Query exactly as sent (default: the canonical sorted form of `params`). */
  rawQuery?: string;
  /** Query string the signature is computed over (default: the one sent). */
  signedQuery?: string;
  timestamp?: number;
  /** Header overrides; undefined removes a header. */
  headers?: Record<string, string | undefined>;
  method?: 'GET' | 'POST' | 'DELETE';
}

/** A deliberately plain signed GET, as a third-party client of the live service would send it. */
export async function signedGet(
  target: { baseUrl: string; credentials: Credentials },
  path: string,
  params: Record<string, string | undefined> = {},
  options: SignedGetOptions = {},
): Promise<RawAnswer> {
  const query = options.rawQuery ?? canonicalQuery(params);
  const timestamp = String(options.timestamp ?? Date.now());
  const signature = sign(target.credentials.secretKey, {
    timestamp,
    method: 'GET',
    requestPath: path,
    queryString: options.signedQuery ?? query,
  });
  const headers: Record<string, string> = {
    'ACCESS-KEY': target.credentials.apiKey,
    'ACCESS-SIGN': signature,
    'ACCESS-TIMESTAMP': timestamp,
    'ACCESS-PASSPHRASE': target.credentials.passphrase,
    'Content-Type': 'application/json',
    locale: 'en-US',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  const res = await request(`${target.baseUrl}${path}${query === '' ? '' : `?${query}`}`, {
    method: options.method ?? 'GET',
    headers,
  });
  return { status: res.statusCode, text: await res.body.text(), headers: res.headers };
}

/** The answer's JSON envelope. */
export function envelope(answer: RawAnswer): { code: string; msg: string; requestTime: number; data: unknown } {
  return JSON.parse(answer.text) as { code: string; msg: string; requestTime: number; data: unknown };
}
