import { describe, expect, it } from 'vitest';
import { STREAMS } from '../../src/streams/index.js';
import { EXPORTED_TABLES, TRANSFORMED_TABLES } from '../../src/tables/index.js';
import { STREAM_NAMES } from '../../src/streams/manifest.js';

describe('the manifest of stream names', () => {
  it('has a stream definition for each name, in its order, and none besides', () => {
    expect(STREAMS.map((s) => `${s.kind} ${s.name}`)).toEqual([
      'paged margin_records',
      'paged futures_fills',
      'paged withdrawals',
      'paged p2p_advertisements',
      'paged deposits',
      'paged futures_tax_records',
      'paged spot_tax_records',
      'paged p2p_tax_records',
      'paged uta_tax_records',
      'paged uta_financial_records',
      'paged copy_transfers',
      'paged copy_profit_shares',
      'paged lead_trader_profits',
      'snapshot account_balances',
      'snapshot asset_balances',
      'snapshot loans',
    ]);
    expect(STREAMS.map((s) => s.name)).toEqual(STREAM_NAMES);
  });

  it('lists the typed tables in the order the summary prints them, and exports five of them', () => {
    expect(TRANSFORMED_TABLES.map((m) => m.name)).toEqual([
      'margin_records',
      'futures_fills',
      'futures_fill_fees',
      'withdrawals',
      'p2p_advertisements',
      'deposits',
      'futures_tax_records',
      'spot_tax_records',
      'p2p_tax_records',
      'uta_tax_records',
      'uta_financial_records',
      'copy_transfers',
      'copy_profit_shares',
      'lead_trader_profits',
      'account_balances',
      'asset_balances',
      'loans',
      'ledger',
    ]);
    expect(EXPORTED_TABLES.map((t) => `${t.name}:${t.key}`)).toEqual([
      'margin_records:id',
      'futures_fills:trade_id',
      'withdrawals:order_id',
      'deposits:order_id',
      'ledger:entry_id',
    ]);
  });
});
