import { accountBalances } from './account-balances.js';
import { futuresFills } from './futures-fills.js';
import { marginRecords } from './margin-records.js';
import { p2pAdvertisements } from './p2p-advertisements.js';
import type { StreamDef } from './stream.js';
import { withdrawals } from './withdrawals.js';

/** Every stream ledgerpipe extracts, in the order they are reported. */
export const STREAMS: readonly StreamDef[] = [marginRecords, futuresFills, withdrawals, p2pAdvertisements, accountBalances];

export const STREAM_NAMES = STREAMS.map((s) => s.name);
