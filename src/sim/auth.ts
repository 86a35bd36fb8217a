import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Credentials } from '../http/credentials.js';
import { sign } from '../http/signing.js';
import { SimApiError } from './api-error.js';

export type { Credentials };

/** The live service's window for ACCESS-TIMESTAMP (docs/platform.md, "Requests and signing"). */
export const TIMESTAMP_TOLERANCE_MS = 30_000;

const authError = (code: string, msg: string): SimApiError => new SimApiError(400, code, msg);

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface SignedRequest {
  method: string;
  path: string;
  /** The query exactly as it arrived, without `?`. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
}

/**
 * Checks a signed request as the live service does, in its order: headers present, timestamp well-formed and
 * within 30 s of server time, key known, passphrase right, signature right. The signature is accepted over
 * the query as received and over its percent-decoded form, because live clients differ in which they sign.
 * Returns the API key, which rate limits are counted by.
 */
export function authenticate(request: SignedRequest, accounts: ReadonlyMap<string, Credentials>, now: number): string {
  const key = header(request.headers, 'access-key');
  const signature = header(request.headers, 'access-sign');
  const timestamp = header(request.headers, 'access-timestamp');
  const passphrase = header(request.headers, 'access-passphrase');
  if (key === undefined || key === '') throw authError('40001', 'ACCESS_KEY cannot be empty');
  if (signature === undefined || signature === '') throw authError('40002', 'ACCESS_SIGN cannot be empty');
  if (timestamp === undefined || timestamp === '') throw authError('40003', 'ACCESS_TIMESTAMP cannot be empty');
  if (passphrase === undefined || passphrase === '') throw authError('40011', 'ACCESS_PASSPHRASE cannot be empty');
  if (!/^\d{13}$/.test(timestamp)) throw authError('40005', 'Invalid ACCESS_TIMESTAMP');
  if (Math.abs(Number(timestamp) - now) > TIMESTAMP_TOLERANCE_MS) throw authError('40008', 'Request timestamp expired');
  const account = accounts.get(key);
  if (account === undefined) throw authError('40037', 'Apikey does not exist');
  if (!sameText(passphrase, account.passphrase)) throw authError('40012', 'apikey/password is incorrect');
  const base = { timestamp, method: request.method, requestPath: request.path };
  const candidates = [request.rawQuery];
  try {
    const decoded = decodeURIComponent(request.rawQuery);
    if (decoded !== request.rawQuery) candidates.push(decoded);
  } catch {
    // A query that is not valid percent-encoding can only have been signed as received.
  }
  const ok = candidates.some((queryString) => sameText(signature, sign(account.secretKey, { ...base, queryString })));
  if (!ok) throw authError('40009', 'sign signature error');
  return key;
}
