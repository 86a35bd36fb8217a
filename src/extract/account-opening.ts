import { z } from 'zod';
import { PlatformError } from '../errors/platform-error.js';
import { ExtractError } from '../errors/extract-error.js';
import { TransportError } from '../errors/transport-error.js';
import { msString } from '../streams/fields.js';
import type { Logger } from '../util/logger.js';
import { readOpening, recordOpening } from '../warehouse/settings.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/**
 * GET /api/v2/spot/account/info: "Get account information", 1 request a second per user, whose `regisTime` is the
 * account's "Register time" (https://www.bitget.com/api-doc/spot/account/Get-Account-Info; docs/history.md). Only
 * regisTime is read: the answer's other fields (user ids, IP whitelist, permissions) are never kept.
 */
export const ACCOUNT_INFO = { path: '/api/v2/spot/account/info', ratePerSecond: 1 } as const;

const accountInfoSchema = z.looseObject({ regisTime: msString });

/** The platform's code for a key without the endpoint's permission (docs/platform.md). */
const NO_PERMISSION = '40014';

/** Reads the registration time out of the endpoint's `data`. */
export const readRegisTime = (data: unknown): number => Number(accountInfoSchema.parse(data).regisTime);

/** What the run knows of an account's opening: the instant, or why it is not known. */
export type Opening = { at: number } | { unknown: string };

/**
 * The account's opening (docs/history.md): as the warehouse recorded it, else asked once of the platform and
 * recorded. A platform that does not serve the endpoint, or a key that may not read it, leaves it unknown (a
 * warning; the history is then read from the range's start only, and the gains say what lacks an acquisition);
 * refused credentials stop the run as anywhere else.
 */
export async function accountOpening(options: {
  warehouse: Warehouse;
  account: string;
  fetch: () => Promise<number>;
  now: () => number;
  log: Logger;
}): Promise<Opening> {
  const { warehouse, account } = options;
  const recorded = await warehouse.exclusive((c) => readOpening(c, account));
  if (recorded !== undefined) return { at: recorded };
  let at: number;
  try {
    at = await options.fetch();
  } catch (error) {
    // Refused credentials stop the run as anywhere; a key that may not read this endpoint (40014, missing
    // permission: docs/platform.md), like any other failure, leaves the opening unknown.
    const refused =
      error instanceof PlatformError
        ? error.exit === 'auth' && error.platformCode !== NO_PERMISSION
        : !(error instanceof TransportError || error instanceof ExtractError);
    if (refused) throw error;
    const why =
      error instanceof PlatformError
        ? `GET ${ACCOUNT_INFO.path} answered HTTP ${error.httpStatus}, code ${error.platformCode}`
        : (error as Error).message;
    options.log.warn(
      `${account}: the platform did not say when the account was opened (${why}); the history before the range is not read: give --history-from DATE to read it from a date (docs/history.md)`,
    );
    return { unknown: why };
  }
  await warehouse.transaction((c) => recordOpening(c, { account, registeredAt: at, now: options.now() }));
  return { at };
}
