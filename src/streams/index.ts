// Generated from the stream files of src/streams/ by `npm run generate` (scripts/stream-index.ts): the
// list keeps its order, which may be changed here by hand; a new stream is added after the last of its kind.
import { accountBalances } from './account-balances.js';
import { assetBalances } from './asset-balances.js';
import { copyProfitShares, copyTransfers, leadTraderProfits } from './copy-trading.js';
import { deposits } from './deposits.js';
import { futuresFills } from './futures-fills.js';
import { loans } from './loans.js';
import { marginRecords } from './margin-records.js';
import { p2pAdvertisements } from './p2p-advertisements.js';
import { futuresTaxRecords, p2pTaxRecords, spotTaxRecords } from './tax-records.js';
import { utaFinancialRecords } from './uta-financial-records.js';
import { utaTaxRecords } from './uta-tax-records.js';
import { withdrawals } from './withdrawals.js';
import type { StreamDef } from './stream.js';

/**
 * Every stream ledgerpipe reads, paged ones first, in the order summaries report them: the one list of streams
 * (docs/adding-a-stream.md). Each definition holds its endpoint and its table; every other list of streams
 * (src/streams/manifest.ts, src/tables/) is derived from this one.
 */
export const STREAMS = [
  marginRecords,
  futuresFills,
  withdrawals,
  p2pAdvertisements,
  deposits,
  futuresTaxRecords,
  spotTaxRecords,
  p2pTaxRecords,
  utaTaxRecords,
  utaFinancialRecords,
  copyTransfers,
  copyProfitShares,
  leadTraderProfits,
  accountBalances,
  assetBalances,
  loans,
] as const satisfies readonly StreamDef[];
