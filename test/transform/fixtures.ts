import type { RawInput } from '../helpers/raw.js';

/** 2025-06-01T00:00:00Z: the golden records sit one second apart from here. */
export const T = Date.UTC(2025, 5, 1);
export const at = (i: number): number => T + i * 1000;
export const iso = (i: number): string => new Date(at(i)).toISOString();

function margin(i: number, id: string, type: string, coin: string, amount: string, extra: Record<string, unknown> = {}, partition = 'crossed'): RawInput {
  return {
    stream: 'margin_records',
    partition,
    key: id,
    ts: at(i),
    payload: { id, coin, symbol: '', marginTaxType: type, amount, fee: '0', total: '1000', ts: String(at(i)), ...extra },
  };
}

function fill(i: number, tradeId: string, partition: string, symbol: string, extra: Record<string, unknown>): RawInput {
  return {
    stream: 'futures_fills',
    partition,
    key: tradeId,
    ts: at(i),
    payload: {
      tradeId,
      symbol,
      orderId: `o${tradeId}`,
      price: '100',
      baseVolume: '1',
      quoteVolume: '100',
      side: 'buy',
      profit: '0',
      enterPointSource: 'API',
      tradeSide: 'open',
      posMode: 'hedge_mode',
      tradeScope: 'taker',
      cTime: String(at(i)),
      feeDetail: [],
      ...extra,
    },
  };
}

function withdrawal(i: number, orderId: string, status: string, extra: Record<string, unknown> = {}): RawInput {
  return {
    stream: 'withdrawals',
    key: orderId,
    ts: at(i),
    payload: {
      orderId,
      tradeId: orderId,
      coin: 'USDT',
      clientOid: '',
      type: 'withdraw',
      dest: 'internal_transfer',
      size: '10',
      fee: '0',
      status,
      fromAddress: '',
      toAddress: '',
      chain: '',
      confirm: '0',
      tag: '',
      cTime: String(at(i)),
      uTime: String(at(i) + 60_000),
      ...extra,
    },
  };
}

const fee = (feeCoin: string, totalFee: string | null, deduction = 'no') => ({ deduction, feeCoin, totalDeductionFee: '0', totalFee });

/** Every marginTaxType and an unknown one; fills that open and close, paying and rebating fees; withdrawals in every status. */
export const GOLDEN: readonly RawInput[] = [
  margin(0, '101', 'transfer_in', 'USDT', '100'),
  margin(1, '102', 'transfer_out', 'USDT', '-40.5'),
  margin(2, '103', 'borrow', 'BTC', '0.5'),
  margin(3, '104', 'repay', 'BTC', '0.25'),
  margin(4, '105', 'interest_repay', 'BTC', '0.00001234'),
  margin(5, '106', 'liquidation_fee', 'USDT', '-3.2'),
  margin(6, '107', 'compensate', 'USDT', '1.1'),
  margin(7, '108', 'deal_in', 'BTC', '0.01', { symbol: 'BTCUSDT', fee: '-0.00000100' }, 'isolated'),
  margin(8, '109', 'deal_out', 'USDT', '650.25', { symbol: 'BTCUSDT', fee: '0.65' }, 'isolated'),
  margin(9, '110', 'system_fee_in', 'USDT', '0.65'),
  margin(10, '111', 'confiscated', 'USDT', '2'),
  margin(11, '112', 'exchange_in', 'ETH', '0.3'),
  margin(12, '113', 'exchange_out', 'USDT', '-900'),
  margin(13, '114', 'special_refund', 'USDT', '-7.7'),
  fill(20, '201', 'USDT-FUTURES', 'BTCUSDT', { feeDetail: [fee('USDT', '-0.6')] }),
  fill(21, '202', 'USDT-FUTURES', 'BTCUSDT', { tradeSide: 'close', profit: '12.5', marginCoin: 'USDT', tradeScope: 'maker', feeDetail: [fee('USDT', '0.1')] }),
  fill(22, '203', 'COIN-FUTURES', 'ETHUSD', { tradeSide: 'close', profit: '-0.002', feeDetail: [fee('ETH', '-0.0001'), fee('BGB', '-0.05', 'yes')] }),
  fill(23, '204', 'COIN-FUTURES', 'BTCUSD', { tradeSide: 'close', profit: '0.0003', marginCoin: 'BTC', feeDetail: null }),
  fill(24, '205', 'USDC-FUTURES', 'BTCPERP', { tradeSide: 'close', profit: '-5', feeDetail: [fee('USDC', null)] }),
  fill(25, '206', 'USDC-FUTURES', 'ETHPERP', { marginCoin: 'USDC', feeDetail: [fee('USDC', '0')] }),
  fill(26, '207', 'USDT-FUTURES', 'BTCUSDT', { tradeSide: 'burst_close_long', profit: '-100', enterPointSource: 'SYS', feeDetail: [fee('USDT', '-1.5'), fee('USDT', '-0.5')] }),
  withdrawal(30, '301', 'success', { dest: 'on_chain', tradeId: '0xabc', size: '100', fee: '-1', chain: 'trc20' }),
  withdrawal(31, '302', 'success', { coin: 'BTC', size: '0.1', fee: '0' }),
  withdrawal(32, '303', 'success', { dest: 'on_chain', tradeId: '0xdef', coin: 'ETH', size: '1', fee: undefined, chain: 'erc20' }),
  withdrawal(33, '304', 'pending', { fee: '-1' }),
  withdrawal(34, '305', 'pending_review'),
  withdrawal(35, '306', 'pending_fail'),
  withdrawal(36, '307', 'pending_review_fail'),
  withdrawal(37, '308', 'reject', { fee: '-1' }),
  withdrawal(38, '309', 'fail'),
  {
    stream: 'deposits',
    key: '401',
    ts: at(40),
    payload: { orderId: '401', tradeId: '0xdep', coin: 'USDT', type: 'deposit', size: '250', status: 'success', toAddress: '0x1', dest: 'on_chain', chain: 'erc20', fromAddress: '0x2', cTime: String(at(40)), uTime: String(at(40)) },
  },
  {
    stream: 'deposits',
    key: '402',
    ts: at(41),
    payload: { orderId: '402', tradeId: '402', coin: 'BTC', type: 'deposit', size: '1', status: 'pending', toAddress: '', dest: 'internal_transfer', chain: '', fromAddress: '9', cTime: String(at(41)), uTime: String(at(41)) },
  },
  {
    stream: 'futures_tax_records',
    partition: 'USDT-FUTURES',
    key: '501',
    ts: at(42),
    payload: { id: '501', symbol: 'BTCUSDT', marginCoin: 'USDT', futureTaxType: 'funding_fee', amount: '-1.25', fee: '0', ts: String(at(42)) },
  },
  {
    stream: 'futures_tax_records',
    partition: 'COIN-FUTURES',
    key: '502',
    ts: at(43),
    payload: { id: '502', symbol: 'BTCUSD', marginCoin: 'BTC', futureTaxType: 'close_long', amount: '0.01', fee: '-0.0001', ts: String(at(43)) },
  },
  {
    stream: 'spot_tax_records',
    key: '601',
    ts: at(44),
    payload: { id: '601', coin: 'USDT', spotTaxType: 'Interest', amount: '3.5', fee: '0', balance: '103.5', bizOrderId: 'b601', ts: String(at(44)) },
  },
  {
    stream: 'futures_tax_records',
    partition: 'USDT-FUTURES',
    key: '503',
    ts: at(46),
    payload: { id: '503', symbol: 'BTCUSDT', marginCoin: 'USDT', futureTaxType: 'trans_from_exchange', amount: '20', fee: '-0.5', ts: String(at(46)) },
  },
  {
    stream: 'spot_tax_records',
    key: '602',
    ts: at(47),
    payload: { id: '602', coin: 'USDT', spotTaxType: 'Deposit', amount: '250', fee: '0', balance: '353.5', bizOrderId: 'b602', ts: String(at(47)) },
  },
  { stream: 'p2p_tax_records', key: '701', ts: at(45), payload: { id: '701', coin: 'USDT', p2pTaxType: 'transfer-in', balance: '100', ts: String(at(45)) } },
];

/** entry_id, source_id, leg, ts, category, asset, amount, symbol, reference, note: the ledger GOLDEN must give. */
export const GOLDEN_LEDGER: readonly (readonly (string | null)[])[] = [
  ['margin_records:101:main', '101', 'main', iso(0), 'transfer_in', 'USDT', '100', null, '101', 'crossed transfer_in'],
  ['margin_records:102:main', '102', 'main', iso(1), 'transfer_out', 'USDT', '-40.5', null, '102', 'crossed transfer_out'],
  ['margin_records:103:main', '103', 'main', iso(2), 'loan_borrow', 'BTC', '0.5', null, '103', 'crossed borrow'],
  ['margin_records:104:main', '104', 'main', iso(3), 'loan_repay', 'BTC', '-0.25', null, '104', 'crossed repay'],
  ['margin_records:105:main', '105', 'main', iso(4), 'interest', 'BTC', '-0.00001234', null, '105', 'crossed interest_repay'],
  ['margin_records:106:main', '106', 'main', iso(5), 'liquidation_fee', 'USDT', '-3.2', null, '106', 'crossed liquidation_fee'],
  ['margin_records:107:main', '107', 'main', iso(6), 'compensation', 'USDT', '1.1', null, '107', 'crossed compensate'],
  ['margin_records:108:fee', '108', 'fee', iso(7), 'fee', 'BTC', '-0.000001', 'BTCUSDT', '108', 'isolated deal_in'],
  ['margin_records:108:main', '108', 'main', iso(7), 'trade_in', 'BTC', '0.01', 'BTCUSDT', '108', 'isolated deal_in'],
  ['margin_records:109:fee', '109', 'fee', iso(8), 'fee', 'USDT', '-0.65', 'BTCUSDT', '109', 'isolated deal_out'],
  ['margin_records:109:main', '109', 'main', iso(8), 'trade_out', 'USDT', '-650.25', 'BTCUSDT', '109', 'isolated deal_out'],
  ['margin_records:110:main', '110', 'main', iso(9), 'trade_fee', 'USDT', '-0.65', null, '110', 'crossed system_fee_in'],
  ['margin_records:111:main', '111', 'main', iso(10), 'liquidation_loss', 'USDT', '-2', null, '111', 'crossed confiscated'],
  ['margin_records:112:main', '112', 'main', iso(11), 'conversion_in', 'ETH', '0.3', null, '112', 'crossed exchange_in'],
  ['margin_records:113:main', '113', 'main', iso(12), 'conversion_out', 'USDT', '-900', null, '113', 'crossed exchange_out'],
  ['margin_records:114:main', '114', 'main', iso(13), 'unknown', 'USDT', '-7.7', null, '114', 'crossed special_refund'],
  ['futures_fills:201:fee1', '201', 'fee1', iso(20), 'trading_fee', 'USDT', '-0.6', 'BTCUSDT', 'o201', 'USDT-FUTURES'],
  ['futures_fills:202:fee1', '202', 'fee1', iso(21), 'trading_fee', 'USDT', '0.1', 'BTCUSDT', 'o202', 'USDT-FUTURES'],
  ['futures_fills:202:pnl', '202', 'pnl', iso(21), 'realized_pnl', 'USDT', '12.5', 'BTCUSDT', 'o202', 'USDT-FUTURES close'],
  ['futures_fills:203:fee1', '203', 'fee1', iso(22), 'trading_fee', 'ETH', '-0.0001', 'ETHUSD', 'o203', 'COIN-FUTURES'],
  ['futures_fills:203:fee2', '203', 'fee2', iso(22), 'trading_fee', 'BGB', '-0.05', 'ETHUSD', 'o203', 'COIN-FUTURES deduction'],
  ['futures_fills:203:pnl', '203', 'pnl', iso(22), 'realized_pnl', 'ETH', '-0.002', 'ETHUSD', 'o203', 'COIN-FUTURES close'],
  ['futures_fills:204:pnl', '204', 'pnl', iso(23), 'realized_pnl', 'BTC', '0.0003', 'BTCUSD', 'o204', 'COIN-FUTURES close'],
  ['futures_fills:205:pnl', '205', 'pnl', iso(24), 'realized_pnl', 'USDC', '-5', 'BTCPERP', 'o205', 'USDC-FUTURES close'],
  ['futures_fills:207:fee1', '207', 'fee1', iso(26), 'trading_fee', 'USDT', '-1.5', 'BTCUSDT', 'o207', 'USDT-FUTURES'],
  ['futures_fills:207:fee2', '207', 'fee2', iso(26), 'trading_fee', 'USDT', '-0.5', 'BTCUSDT', 'o207', 'USDT-FUTURES'],
  ['futures_fills:207:pnl', '207', 'pnl', iso(26), 'realized_pnl', 'USDT', '-100', 'BTCUSDT', 'o207', 'USDT-FUTURES burst_close_long'],
  ['withdrawals:301:fee', '301', 'fee', iso(30), 'withdrawal_fee', 'USDT', '-1', null, '0xabc', 'on_chain trc20'],
  ['withdrawals:301:main', '301', 'main', iso(30), 'withdrawal', 'USDT', '-100', null, '0xabc', 'on_chain trc20'],
  ['withdrawals:302:main', '302', 'main', iso(31), 'withdrawal', 'BTC', '-0.1', null, '302', 'internal_transfer'],
  ['withdrawals:303:main', '303', 'main', iso(32), 'withdrawal', 'ETH', '-1', null, '0xdef', 'on_chain erc20'],
  ['deposits:401:main', '401', 'main', iso(40), 'deposit', 'USDT', '250', null, '0xdep', 'on_chain erc20'],
  ['futures_tax_records:501:main', '501', 'main', iso(42), 'funding_fee', 'USDT', '-1.25', 'BTCUSDT', '501', 'USDT-FUTURES funding_fee'],
  ['futures_tax_records:503:fee', '503', 'fee', iso(46), 'futures_fee', 'USDT', '-0.5', 'BTCUSDT', '503', 'USDT-FUTURES trans_from_exchange'],
  ['futures_tax_records:503:main', '503', 'main', iso(46), 'futures_trans_from_exchange', 'USDT', '20', 'BTCUSDT', '503', 'USDT-FUTURES trans_from_exchange'],
  ['spot_tax_records:601:main', '601', 'main', iso(44), 'Interest', 'USDT', '3.5', null, 'b601', 'Interest'],
  ['p2p_tax_records:701:main', '701', 'main', iso(45), 'transfer-in', 'USDT', '100', null, '701', 'transfer-in'],
];
