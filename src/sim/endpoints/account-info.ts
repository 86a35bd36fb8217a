import { createRng } from '../data/rng.js';
import type { Endpoint } from './endpoint.js';

/**
 * GET /api/v2/spot/account/info (https://www.bitget.com/api-doc/spot/account/Get-Account-Info; mirrored in
 * sebastianganser/Bitget_API, spot/account/Get-Account-Info.md): signed, 1 request a second per key ("Frequency
 * limit: 1 time/1s (User ID)"), no parameters; the account in the shape of the docs' example, its `regisTime` the
 * registration as a string of Unix ms (the data set's `openedAt`), which ledgerpipe reads history back to. The ids
 * come from the account's seed; the key is read-only, as ledgerpipe's are (the docs' read-only authority codes).
 *
 * @example
 * accountInfoEndpoint({ seed: 'retail', openedAt: Date.UTC(2022, 9, 4, 16, 44) });
 */
export function accountInfoEndpoint(account: { seed: string; openedAt: number }): Endpoint {
  const rng = createRng(`ledgerpipe-sim-user:${account.seed}`);
  const userId = String(rng.int(1_000_000_000, 9_999_999_999));
  const json = JSON.stringify({
    userId,
    inviterId: String(rng.int(1_000_000_000, 9_999_999_999)),
    ips: '',
    authorities: ['coor', 'cpor', 'stor', 'smor', 'wtor', 'taxr', 'p2pr'],
    parentId: Number(userId),
    traderType: 'not_trader',
    channelCode: '',
    channel: '',
    regisTime: String(account.openedAt),
  });
  return { path: '/api/v2/spot/account/info', signed: true, rate: 1, handle: () => json };
}
