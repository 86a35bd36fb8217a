import { LedgerpipeError, type ExitKind } from './ledgerpipe-error.js';

/**
 * Codes the live service answers for missing or wrong credentials, permissions and IP lists: 40001-40012
 * (key, sign, timestamp, passphrase) but 40008 and 40010, which are retried; 40014; 40018/40038; 40037.
 */
const AUTH_CODES = new Set([
  '40001',
  '40002',
  '40003',
  '40004',
  '40005',
  '40006',
  '40007',
  '40009',
  '40011',
  '40012',
  '40014',
  '40018',
  '40037',
  '40038',
]);
/** Codes worth another try: timeouts, system errors, releases (docs/platform.md, "Answers and errors"). */
const TRANSIENT_CODES = new Set(['40010', '40015', '40725', '45001', '40808']);
/** Timestamp outside the 30 s window: re-sync the clock, then retry. */
export const TIMESTAMP_EXPIRED = '40008';
/** The window asked for is wider than the endpoint allows. */
export const WINDOW_TOO_WIDE = new Set(['00001', '40705']);
/**
 * The window asked for starts before the oldest data the platform serves: 43111 "param error time range illegal",
 * as the live service answered a request older than its 90-day reach (ccxt/ccxt#21502; docs/history.md).
 */
export const OUT_OF_REACH = new Set(['43111']);

/**
 * The key is of the other kind of account (docs/unified-accounts.md): 40084 "Classic Account mode", a classic key on a
 * unified (v3) endpoint (enarjord/passivbot#601, TraderAlice/OpenAlice#951); 40085 "You are in Unified Account mode,
 * and the Classic Account API is not supported at this time" (ccxt/ccxt#26838) and 40731 (msei99/pbgui#129), a
 * unified key on a classic (v2) endpoint.
 */
export const OTHER_ACCOUNT_MODE = new Set(['40084', '40085', '40731']);

function exitFor(code: string): ExitKind {
  return AUTH_CODES.has(code) ? 'auth' : 'unexpected';
}

function hintFor(code: string): string {
  if (code === '40012' || code === '40011')
    return "check the passphrase in LEDGERPIPE_API_PASSPHRASE (or your profile's variable)";
  if (code === '40009') return "check the secret in LEDGERPIPE_API_SECRET (or your profile's variable)";
  if (code === '40037' || code === '40006' || code === '40001')
    return "check the key in LEDGERPIPE_API_KEY (or your profile's variable)";
  if (code === '40014') return 'give the API key read permission for this endpoint';
  if (code === '40018' || code === '40038') return "add this machine's IP address to the API key's whitelist";
  if (TRANSIENT_CODES.has(code) || code === '429') return 'the platform is busy; run again later to resume';
  if (OTHER_ACCOUNT_MODE.has(code))
    return 'the endpoint is for the other kind of account (classic or unified): see docs/unified-accounts.md';
  return 'this is likely a ledgerpipe bug; please report it with this line';
}

/**
 * The platform answered, with a code other than `00000`: HTTP 4xx/5xx with the live JSON body, or HTTP 200
 * with a non-success code. `platformCode` is the envelope's code, `httpStatus` the status line.
 *
 * @example
 * if (error instanceof PlatformError && error.platformCode === '40008') await client.syncTime();
 */
export class PlatformError extends LedgerpipeError {
  readonly platformCode: string;
  readonly httpStatus: number;
  readonly platformMessage: string;

  constructor(details: { path: string; httpStatus: number; platformCode: string; platformMessage: string }) {
    const { path, httpStatus, platformCode, platformMessage } = details;
    super(
      `the platform refused GET ${path}: HTTP ${httpStatus}, code ${platformCode} "${platformMessage}"; ${hintFor(platformCode)}`,
      {
        code: `LP_PLATFORM_${platformCode}`,
        retryable: TRANSIENT_CODES.has(platformCode) || httpStatus >= 500,
        exit: exitFor(platformCode),
      },
    );
    this.platformCode = platformCode;
    this.httpStatus = httpStatus;
    this.platformMessage = platformMessage;
  }

  get rateLimited(): boolean {
    return this.httpStatus === 429 || this.platformCode === '429';
  }
}
