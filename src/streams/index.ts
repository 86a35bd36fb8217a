import { accountBalances } from './account-balances.js';
import { deposits } from './deposits.js';
import { futuresFills } from './futures-fills.js';
import { marginRecords } from './margin-records.js';
import { p2pAdvertisements } from './p2p-advertisements.js';
import type { StreamDef } from './stream.js';
import { futuresTaxRecords, p2pTaxRecords, spotTaxRecords } from './tax-records.js';
import { withdrawals } from './withdrawals.js';

/** Every stream ledgerpipe extracts, in the order of the manifest (STREAM_NAMES), which they are reported in. */
export const STREAMS: readonly StreamDef[] = [
  marginRecords,
  futuresFills,
  withdrawals,
  p2pAdvertisements,
  deposits,
  futuresTaxRecords,
  spotTaxRecords,
  p2pTaxRecords,
  accountBalances,
];

