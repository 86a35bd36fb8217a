import { describe, expect, it } from 'vitest';
import { STREAMS } from '../../src/streams/index.js';
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
      'snapshot account_balances',
    ]);
    expect(STREAMS.map((s) => s.name)).toEqual(STREAM_NAMES);
  });
});
