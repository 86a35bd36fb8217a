import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkRecords } from '../../src/extract/records.js';
import { accountBalances } from '../../src/streams/account-balances.js';
import { futuresFills } from '../../src/streams/futures-fills.js';
import { marginRecords } from '../../src/streams/margin-records.js';
import { p2pAdvertisements } from '../../src/streams/p2p-advertisements.js';
import type { PagedStreamDef } from '../../src/streams/stream.js';
import { p2pTaxRecords } from '../../src/streams/tax-records.js';
import { withdrawals } from '../../src/streams/withdrawals.js';

const T = 1_700_000_000_000;

function withdrawal(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId: '1001',
    tradeId: '0x6a1c2e',
    coin: 'USDT',
    clientOid: '',
    type: 'withdraw',
    dest: 'on_chain',
    size: '25.5',
    fee: '-1.00000000',
    status: 'success',
    fromAddress: '0x51aa',
    toAddress: '0x52bb',
    chain: 'trc20',
    confirm: '12',
    tag: '',
    cTime: String(T),
    uTime: String(T + 60_000),
    ...overrides,
  };
}

function fill(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tradeId: '9001',
    symbol: 'BTCUSDT',
    orderId: '7001',
    price: '42000.5',
    baseVolume: '0.01',
    quoteVolume: '420.005',
    feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: null, totalFee: '-0.252003' }],
    side: 'buy',
    profit: '0',
    enterPointSource: 'API',
    tradeSide: 'open',
    posMode: 'one_way_mode',
    tradeScope: 'taker',
    cTime: String(T),
    ...overrides,
  };
}

/** Checks records of a paged stream with its own time function, as the extractor does. */
function check(
  stream: PagedStreamDef,
  records: readonly unknown[],
  extra: { range?: { start: number; end: number }; seenFields?: Set<string> } = {},
) {
  return checkRecords(stream, records, {
    time: (r) => stream.time(r),
    seenFields: extra.seenFields ?? new Set(),
    ...(extra.range === undefined ? {} : { range: extra.range }),
  });
}

const sha256Key = (payload: string) => `sha256:${createHash('sha256').update(payload).digest('hex').slice(0, 32)}`;

describe('checkRecords', () => {
  it('loads a valid withdrawal with its payload exactly as received', () => {
    const record = withdrawal();
    expect(check(withdrawals, [record])).toEqual({
      load: [{ key: '1001', ts: T, payload: JSON.stringify(record) }],
      quarantine: [],
      drift: [],
      outside: 0,
      outsideWindow: 0,
    });
  });

  it('keeps amounts as the exact strings received', () => {
    const record = withdrawal({ size: '0.000000000000000001', fee: '-123456789012345678.123456789012345678' });
    const [loaded] = check(withdrawals, [record]).load;
    expect(loaded?.payload).toBe(
      '{"orderId":"1001","tradeId":"0x6a1c2e","coin":"USDT","clientOid":"","type":"withdraw","dest":"on_chain","size":"0.000000000000000001","fee":"-123456789012345678.123456789012345678","status":"success","fromAddress":"0x51aa","toAddress":"0x52bb","chain":"trc20","confirm":"12","tag":"","cTime":"1700000000000","uTime":"1700000060000"}',
    );
  });

  it('loads a record with an unknown field as received and reports the field once, with a sample', () => {
    const first = withdrawal({ orderId: '1', network: { name: 'TRON', memo: null } });
    const second = withdrawal({ orderId: '2', network: { name: 'ETH' } });
    const result = check(withdrawals, [first, second]);
    expect(result.load.map((r) => r.payload)).toEqual([JSON.stringify(first), JSON.stringify(second)]);
    expect(result.drift).toEqual([{ field: 'network', kind: 'unknown', sample: '{"name":"TRON","memo":null}' }]);
  });

  it('reports an unknown field only the first time across calls sharing one seenFields set', () => {
    const seenFields = new Set<string>();
    const first = check(withdrawals, [withdrawal({ orderId: '1', network: 'TRON' })], { seenFields });
    const second = check(withdrawals, [withdrawal({ orderId: '2', network: 'ETH', feeCoin: 'USDT' })], { seenFields });
    expect(first.drift).toEqual([{ field: 'network', kind: 'unknown', sample: '"TRON"' }]);
    expect(second.drift).toEqual([{ field: 'feeCoin', kind: 'unknown', sample: '"USDT"' }]);
    expect([...seenFields]).toEqual(['unknown:network', 'unknown:feeCoin']);
    expect(check(withdrawals, [withdrawal({ network: 'BSC' })]).drift).toEqual([
      { field: 'network', kind: 'unknown', sample: '"BSC"' },
    ]);
  });

  it('reports a schema field a record lacks once, as missing, naming that record; optional fields stay quiet', () => {
    const { chain: _chain, ...withoutChain } = withdrawal({ orderId: '7' }) as Record<string, unknown>;
    const { fee: _fee, ...withoutFee } = withdrawal({ orderId: '8' }) as Record<string, unknown>;
    const seenFields = new Set<string>();
    const first = check(withdrawals, [withoutChain, withoutFee], { seenFields });
    expect(first.drift).toEqual([{ field: 'chain', kind: 'missing', sample: '7' }]);
    expect(first.load.map((r) => r.key)).toEqual(['7', '8']);
    expect(check(withdrawals, [withoutChain], { seenFields }).drift).toEqual([]);
  });

  it('cuts a drift sample at 200 characters', () => {
    const { drift } = check(withdrawals, [withdrawal({ memo: 'x'.repeat(300) })]);
    expect(drift).toEqual([{ field: 'memo', kind: 'unknown', sample: `"${'x'.repeat(199)}` }]);
  });

  it('quarantines a size with an exponent, naming the field', () => {
    const record = withdrawal({ size: '1e3' });
    expect(check(withdrawals, [record])).toEqual({
      load: [],
      quarantine: [{ key: '1001', payload: JSON.stringify(record), error: 'size: not a plain decimal string' }],
      drift: [],
      outside: 0,
      outsideWindow: 0,
    });
  });

  it('quarantines a record without its key under a sha256 key, naming the field', () => {
    const record = withdrawal();
    delete record['orderId'];
    const payload = JSON.stringify(record);
    const { load, quarantine } = check(withdrawals, [record]);
    expect(load).toEqual([]);
    expect(quarantine).toEqual([
      { key: sha256Key(payload), payload, error: 'orderId: Invalid input: expected string, received undefined' },
    ]);
    expect(quarantine[0]?.key).toMatch(/^sha256:[0-9a-f]{32}$/);
  });

  it('quarantines an empty key and a non-object under sha256 keys', () => {
    const empty = withdrawal({ orderId: '' });
    const { quarantine } = check(withdrawals, [empty, null, 'abc']);
    expect(quarantine).toEqual([
      { key: sha256Key(JSON.stringify(empty)), payload: JSON.stringify(empty), error: 'orderId: not a numeric id' },
      {
        key: 'sha256:74234e98afe7498fb5daf1f36ac2d78a',
        payload: 'null',
        error: '(record): Invalid input: expected object, received null',
      },
      {
        key: 'sha256:6cc43f858fbb763301637b5af970e2a4',
        payload: '"abc"',
        error: '(record): Invalid input: expected object, received string',
      },
    ]);
  });

  it('quarantines an amount with more digits than DECIMAL(38,18) holds, rather than round it', () => {
    const { quarantine, load } = check(withdrawals, [
      withdrawal({ orderId: '9', size: '1.0000000000000000001' }),
      withdrawal({ orderId: '10', size: '123456789012345678901' }),
    ]);
    expect(load).toEqual([]);
    expect(quarantine.map((q) => [q.key, q.error])).toEqual([
      ['9', 'size: more digits than DECIMAL(38,18) holds exactly'],
      ['10', 'size: more digits than DECIMAL(38,18) holds exactly'],
    ]);
  });

  it('lists every failing field of a record in one error', () => {
    const record = withdrawal({ size: '1,5', cTime: '2024-01-01' });
    expect(check(withdrawals, [record]).quarantine).toEqual([
      {
        key: '1001',
        payload: JSON.stringify(record),
        error: 'size: not a plain decimal string; cTime: not a Unix millisecond time',
      },
    ]);
  });

  it('loads only records in the half-open range: start included, end excluded', () => {
    const range = { start: T, end: T + 1000 };
    const records = [T - 1, T, T + 999, T + 1000].map((ts, i) =>
      withdrawal({ orderId: String(i + 1), cTime: String(ts) }),
    );
    const result = check(withdrawals, records, { range });
    expect(result.load).toEqual([
      { key: '2', ts: T, payload: JSON.stringify(records[1]) },
      { key: '3', ts: T + 999, payload: JSON.stringify(records[2]) },
    ]);
    expect(result.outside).toBe(2);
    expect(result.quarantine).toEqual([]);
  });

  it('does not report drift from a record outside the range', () => {
    const seenFields = new Set<string>();
    const outside = withdrawal({ cTime: String(T - 1), network: 'TRON' });
    const result = check(withdrawals, [outside], { range: { start: T, end: T + 1000 }, seenFields });
    expect(result).toEqual({ load: [], quarantine: [], drift: [], outside: 1, outsideWindow: 0 });
    expect([...seenFields]).toEqual([]);
  });

  it('passes fills with feeDetail null and with totalFee null', () => {
    const noDetail = fill({ tradeId: '1', feeDetail: null, profit: null });
    const noFee = fill({
      tradeId: '2',
      feeDetail: [{ deduction: null, feeCoin: 'USDT', totalDeductionFee: null, totalFee: null }],
    });
    expect(check(futuresFills, [noDetail, noFee])).toEqual({
      load: [
        { key: '1', ts: T, payload: JSON.stringify(noDetail) },
        { key: '2', ts: T, payload: JSON.stringify(noFee) },
      ],
      quarantine: [],
      drift: [],
      outside: 0,
      outsideWindow: 0,
    });
  });

  it('loads a fill with marginCoin (live since 2025) without drift', () => {
    const record = fill({ marginCoin: 'USDT' });
    expect(check(futuresFills, [record])).toEqual({
      load: [{ key: '9001', ts: T, payload: JSON.stringify(record) }],
      quarantine: [],
      drift: [],
      outside: 0,
      outsideWindow: 0,
    });
  });

  it('reads an advertisement time from cTime or ctime', () => {
    const amounts = { advSize: '1000', size: '250.5', price: '0.92', minTradeAmount: '10', maxTradeAmount: '' };
    const upper = {
      advId: '11',
      advNo: 'A11',
      side: 'sell',
      coin: 'USDT',
      fiat: 'EUR',
      status: 'online',
      ...amounts,
      cTime: String(T),
    };
    const lower = {
      advId: '12',
      advNo: 'A12',
      side: 'buy',
      coin: 'USDT',
      fiat: 'EUR',
      status: 'online',
      ...amounts,
      ctime: String(T + 5),
      utime: String(T + 9),
    };
    const result = check(p2pAdvertisements, [upper, lower]);
    expect(result.load).toEqual([
      { key: '11', ts: T, payload: JSON.stringify(upper) },
      { key: '12', ts: T + 5, payload: JSON.stringify(lower) },
    ]);
    expect(result.quarantine).toEqual([]);
    expect(result.drift).toEqual([{ field: 'utime', kind: 'unknown', sample: `"${T + 9}"` }]);
  });

  it('quarantines an advertisement with neither cTime nor ctime', () => {
    const record = { advId: '13', coin: 'USDT' };
    expect(check(p2pAdvertisements, [record]).quarantine).toEqual([
      { key: '13', payload: '{"advId":"13","coin":"USDT"}', error: 'cTime: neither cTime nor ctime' },
    ]);
  });

  it('quarantines an advertisement whose amount is not a plain decimal, rather than read part of it', () => {
    const record = {
      advId: '14',
      advNo: 'A14',
      side: 'sell',
      coin: 'USDT',
      fiat: 'EUR',
      status: 'online',
      advSize: '1000',
      size: '0',
      price: '1.000.000,50',
      minTradeAmount: '10',
      maxTradeAmount: '500',
      cTime: String(T),
    };
    const result = check(p2pAdvertisements, [record]);
    expect(result.load).toEqual([]);
    expect(result.quarantine).toEqual([
      { key: '14', payload: JSON.stringify(record), error: 'price: not a plain decimal string' },
    ]);
  });

  it('keys margin records by id and times them by ts', () => {
    const record = {
      id: '555',
      coin: 'USDT',
      symbol: 'BTCUSDT',
      marginTaxType: 'system_fee_in',
      amount: '-0.5',
      fee: '0',
      total: '10',
      ts: String(T),
    };
    expect(check(marginRecords, [record]).load).toEqual([{ key: '555', ts: T, payload: JSON.stringify(record) }]);
  });

  it('prefixes snapshot keys and uses the snapshot time', () => {
    const spot = { accountType: 'spot', usdtBalance: '100.25' };
    const bad = { accountType: 'futures', usdtBalance: '1e2' };
    const result = checkRecords(accountBalances, [spot, bad], {
      time: () => T,
      keyPrefix: `${T}:`,
      seenFields: new Set(),
    });
    expect(result).toEqual({
      load: [{ key: `${T}:spot`, ts: T, payload: '{"accountType":"spot","usdtBalance":"100.25"}' }],
      quarantine: [
        {
          key: `${T}:futures`,
          payload: '{"accountType":"futures","usdtBalance":"1e2"}',
          error: 'usdtBalance: not a plain decimal string',
        },
      ],
      drift: [],
      outside: 0,
      outsideWindow: 0,
    });
  });
});

describe('shapes the first release quarantined and real responses have', () => {
  const check = (stream: PagedStreamDef, record: Record<string, unknown>) =>
    checkRecords(stream, [record], { time: stream.time, seenFields: new Set() });

  it('loads a P2P tax record whose amount is in total (earlier docs, SDK types) or in balance (newest docs), and quarantines one with neither', () => {
    const total = { id: '1752117', coin: 'USDT', p2pTaxType: 'buy', total: '10', ts: '1680582050393' };
    const balance = { id: '152526631', coin: 'USDT', p2pTaxType: 'transfer-in', balance: '1', ts: '1755846320684' };
    expect(check(p2pTaxRecords, total).load.map((r) => r.key)).toEqual(['1752117']);
    expect(check(p2pTaxRecords, balance).load.map((r) => r.key)).toEqual(['152526631']);
    const neither = check(p2pTaxRecords, { id: '7', coin: 'USDT', p2pTaxType: 'buy', ts: '1680582050393' });
    expect([neither.load, neither.quarantine.map((q) => q.error)]).toEqual([
      [],
      ['balance: neither balance nor total'],
    ]);
    // Neither field is reported missing: one of the two is enough.
    expect(check(p2pTaxRecords, total).drift).toEqual([]);
  });

  it('loads a fill whose fee entry has totalDeductionFee "" or null, and still quarantines a malformed one', () => {
    const entry = (totalDeductionFee: unknown) => ({
      deduction: 'no',
      feeCoin: 'USDT',
      totalDeductionFee,
      totalFee: '-0.004335',
    });
    expect(check(futuresFills, fill({ feeDetail: [entry('')] })).load).toHaveLength(1);
    expect(check(futuresFills, fill({ feeDetail: [entry(null)] })).load).toHaveLength(1);
    expect(check(futuresFills, fill({ feeDetail: [entry('1e-3')] })).quarantine.map((q) => q.error)).toEqual([
      'feeDetail.0.totalDeductionFee: not a plain decimal string',
    ]);
  });
});

describe('records outside the window they were asked for', () => {
  it("are counted, with the first time seen, and loaded when inside the run's range", () => {
    const window = { start: T, end: T + 1000 };
    const at = (id: string, ms: number) => withdrawal({ orderId: id, cTime: String(ms) });
    const result = checkRecords(
      withdrawals,
      [at('1', T + 10), at('2', T + 5000), at('3', T - 1), at('4', T + 999_999)],
      {
        time: withdrawals.time,
        range: { start: T - 10_000, end: T + 10_000 },
        window,
        seenFields: new Set(),
      },
    );
    expect([result.load.map((r) => r.key), result.outside, result.outsideWindow, result.firstOutsideWindow]).toEqual([
      ['1', '2', '3'],
      1,
      3,
      T + 5000,
    ]);
  });
});

describe('one id twice in one page', () => {
  it('loads identical copies once, and neither of two that differ: they go to quarantine together', () => {
    const a = withdrawal({ orderId: '5', size: '1' });
    const b = withdrawal({ orderId: '5', size: '2' });
    const c = withdrawal({ orderId: '6' });
    const same = checkRecords(withdrawals, [a, a, c], { time: withdrawals.time, seenFields: new Set() });
    expect([same.load.map((r) => r.key), same.quarantine]).toEqual([['5', '6'], []]);
    const differ = checkRecords(withdrawals, [a, c, b], { time: withdrawals.time, seenFields: new Set() });
    expect(differ.load.map((r) => r.key)).toEqual(['6']);
    expect(differ.quarantine).toEqual([
      {
        key: '5',
        payload: `[${JSON.stringify(a)},${JSON.stringify(b)}]`,
        error: 'the page held 2 records with this id and different content; none was loaded',
      },
    ]);
  });
});
