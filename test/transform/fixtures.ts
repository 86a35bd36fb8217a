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

const fee = (feeCoin: string, totalFee: string | null, deduction = 'no', totalDeductionFee: string | null = '0') => ({ deduction, feeCoin, totalDeductionFee, totalFee });

function taxRecord(stream: 'futures_tax_records' | 'spot_tax_records' | 'p2p_tax_records', i: number, id: string, payload: Record<string, unknown>, partition = ''): RawInput {
  return { stream, partition, key: id, ts: at(i), payload: { id, ...payload, ts: String(at(i)) } };
}

/**
 * Records of every kind, with the platform's real type spellings: every marginTaxType, a margin buy (deal_in,
 * deal_out and system_fee_in in one millisecond) and a conversion, types the catalog lacks; fills that open and
 * close, paying, rebating and deducting fees (a BGB deduction written positive, an empty totalDeductionFee, a
 * delivery contract without marginCoin); withdrawals in every status; funding fees, transfers and closes in the
 * futures tax records; spot and P2P tax records of every class.
 */
export const GOLDEN: readonly RawInput[] = [
  margin(0, '101', 'transfer_in', 'USDT', '100'),
  margin(1, '102', 'transfer_out', 'USDT', '-40.5'),
  margin(2, '103', 'borrow', 'BTC', '0.5'),
  margin(3, '104', 'repay', 'BTC', '0.25'),
  margin(4, '105', 'interest_repay', 'BTC', '0.00001234'),
  margin(5, '106', 'liquidation_fee', 'USDT', '-3.2'),
  margin(6, '107', 'compensate', 'USDT', '1.1'),
  // One margin buy: 0.01 BTC in for 650.25 USDT out, a fee on the BTC leg and a system fee without a symbol.
  margin(7, '108', 'deal_in', 'BTC', '0.01', { symbol: 'BTCUSDT', fee: '-0.00000100' }, 'isolated'),
  margin(7, '109', 'deal_out', 'USDT', '650.25', { symbol: 'BTCUSDT', fee: '0' }, 'isolated'),
  margin(7, '110', 'system_fee_in', 'BTC', '0.000002', {}, 'isolated'),
  margin(10, '111', 'confiscated', 'USDT', '2'),
  // A conversion: 900 USDT into 0.3 ETH.
  margin(11, '112', 'exchange_in', 'ETH', '0.3'),
  margin(11, '113', 'exchange_out', 'USDT', '-900'),
  // Types the catalog lacks: out by its name whatever its sign; as signed when the name says nothing.
  margin(12, '114', 'special_transfer_out', 'USDT', '12674'),
  margin(13, '115', 'special_refund', 'USDT', '-7.7'),
  margin(14, '116', 'margin_coupon_profit', 'USDT', '5'),
  fill(20, '201', 'USDT-FUTURES', 'BTCUSDT', { feeDetail: [fee('USDT', '-0.6')] }),
  fill(21, '202', 'USDT-FUTURES', 'BTCUSDT', { tradeSide: 'close', profit: '12.5', marginCoin: 'USDT', tradeScope: 'maker', feeDetail: [fee('USDT', '0.1')] }),
  // A BGB deduction written positive: paid all the same. totalDeductionFee "" as real fills carry it.
  fill(22, '203', 'COIN-FUTURES', 'ETHUSD', { tradeSide: 'close', profit: '-0.002', feeDetail: [fee('ETH', '-0.0001', 'no', ''), fee('BGB', '0.05', 'yes', '0.05')] }),
  fill(23, '204', 'COIN-FUTURES', 'BTCUSD', { tradeSide: 'close', profit: '0.0003', marginCoin: 'BTC', feeDetail: null }),
  fill(24, '205', 'USDC-FUTURES', 'BTCPERP', { tradeSide: 'close', profit: '-5', feeDetail: [fee('USDC', null)] }),
  fill(25, '206', 'USDC-FUTURES', 'ETHPERP', { marginCoin: 'USDC', feeDetail: [fee('USDC', '0')] }),
  fill(26, '207', 'USDT-FUTURES', 'BTCUSDT', { tradeSide: 'burst_close_long', profit: '-100', enterPointSource: 'SYS', feeDetail: [fee('USDT', '-1.5'), fee('USDT', '-0.5')] }),
  // A delivery contract without marginCoin: its margin coin is the base coin.
  fill(27, '208', 'COIN-FUTURES', 'BTCUSDH23', { tradeSide: 'delivery_close_long', profit: '0.004', feeDetail: [fee('BTC', '-0.00001', 'no', null)] }),
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
  taxRecord('futures_tax_records', 42, '501', { symbol: 'BTCUSDT', marginCoin: 'USDT', futureTaxType: 'contract_main_settle_fee', amount: '-1.25', fee: '0' }, 'USDT-FUTURES'),
  taxRecord('futures_tax_records', 43, '502', { symbol: 'BTCUSD', marginCoin: 'BTC', futureTaxType: 'close_long', amount: '0.01', fee: '-0.0001' }, 'COIN-FUTURES'),
  taxRecord('futures_tax_records', 44, '503', { symbol: 'BTCUSDT', marginCoin: 'USDT', futureTaxType: 'trans_from_exchange', amount: '20', fee: '0' }, 'USDT-FUTURES'),
  taxRecord('futures_tax_records', 45, '504', { symbol: 'ETHUSDT', marginCoin: 'USDT', futureTaxType: 'CONTRACT_MAIN_SETTLE_FEE_USER_IN', amount: '0.75', fee: '0' }, 'USDT-FUTURES'),
  taxRecord('spot_tax_records', 50, '601', { coin: 'USDT', spotTaxType: 'Interest', amount: '3.5', fee: '0', balance: '103.5', bizOrderId: 'b601' }),
  taxRecord('spot_tax_records', 51, '602', { coin: 'USDT', spotTaxType: 'Deposit', amount: '250', fee: '0', balance: '353.5', bizOrderId: 'b602' }),
  taxRecord('spot_tax_records', 52, '603', { coin: 'USDT', spotTaxType: 'Transfer in', amount: '40', fee: '0', balance: '393.5' }),
  taxRecord('spot_tax_records', 53, '604', { coin: 'EUR', spotTaxType: 'Fiat deposit', amount: '500', fee: '0', balance: '500' }),
  taxRecord('spot_tax_records', 54, '605', { coin: 'USDT', spotTaxType: 'Fast withdrawal fee', amount: '-0.8', fee: '0', balance: '392.7' }),
  // A spot buy: 2 SOL in for 300 USDT out, its fee in SOL, one order.
  taxRecord('spot_tax_records', 55, '606', { coin: 'SOL', spotTaxType: 'Buy', amount: '2', fee: '0', balance: '2', bizOrderId: 'o77' }),
  taxRecord('spot_tax_records', 55, '607', { coin: 'USDT', spotTaxType: 'Sell', amount: '-300', fee: '0', balance: '92.7', bizOrderId: 'o77' }),
  taxRecord('spot_tax_records', 55, '608', { coin: 'SOL', spotTaxType: 'Transaction fee deduct', amount: '-0.002', fee: '0', balance: '1.998', bizOrderId: 'o77' }),
  taxRecord('spot_tax_records', 56, '609', { coin: 'ARB', spotTaxType: 'Airdrop Reward-A', amount: '12', fee: '0', balance: '12' }),
  taxRecord('p2p_tax_records', 60, '701', { coin: 'USDT', p2pTaxType: 'transfer-in', balance: '100' }),
  // The amount in `total`, as the earlier docs and SDK types have it.
  taxRecord('p2p_tax_records', 61, '702', { coin: 'USDT', p2pTaxType: 'buy', total: '10' }),
  taxRecord('p2p_tax_records', 62, '703', { coin: 'USDT', p2pTaxType: 'sell', balance: '-4' }),
];

/** entry_id, source_id, leg, ts, category, asset, amount, symbol, reference, note, trade_group: the ledger GOLDEN must give. */
export const GOLDEN_LEDGER: readonly (readonly (string | null)[])[] = [
  ['deposits:401:main', '401', 'main', iso(40), 'deposit', 'USDT', '250', null, '0xdep', 'on_chain erc20', null],
  ['futures_fills:201:fee1', '201', 'fee1', iso(20), 'trading_fee', 'USDT', '-0.6', 'BTCUSDT', 'o201', 'USDT-FUTURES', null],
  ['futures_fills:202:fee1', '202', 'fee1', iso(21), 'trading_fee', 'USDT', '0.1', 'BTCUSDT', 'o202', 'USDT-FUTURES', null],
  ['futures_fills:202:pnl', '202', 'pnl', iso(21), 'realized_pnl', 'USDT', '12.5', 'BTCUSDT', 'o202', 'USDT-FUTURES close', null],
  ['futures_fills:203:fee1', '203', 'fee1', iso(22), 'trading_fee', 'ETH', '-0.0001', 'ETHUSD', 'o203', 'COIN-FUTURES', null],
  ['futures_fills:203:fee2', '203', 'fee2', iso(22), 'trading_fee', 'BGB', '-0.05', 'ETHUSD', 'o203', 'COIN-FUTURES deduction', null],
  ['futures_fills:203:pnl', '203', 'pnl', iso(22), 'realized_pnl', 'ETH', '-0.002', 'ETHUSD', 'o203', 'COIN-FUTURES close', null],
  ['futures_fills:204:pnl', '204', 'pnl', iso(23), 'realized_pnl', 'BTC', '0.0003', 'BTCUSD', 'o204', 'COIN-FUTURES close', null],
  ['futures_fills:205:pnl', '205', 'pnl', iso(24), 'realized_pnl', 'USDC', '-5', 'BTCPERP', 'o205', 'USDC-FUTURES close', null],
  ['futures_fills:207:fee1', '207', 'fee1', iso(26), 'trading_fee', 'USDT', '-1.5', 'BTCUSDT', 'o207', 'USDT-FUTURES', null],
  ['futures_fills:207:fee2', '207', 'fee2', iso(26), 'trading_fee', 'USDT', '-0.5', 'BTCUSDT', 'o207', 'USDT-FUTURES', null],
  ['futures_fills:207:pnl', '207', 'pnl', iso(26), 'realized_pnl', 'USDT', '-100', 'BTCUSDT', 'o207', 'USDT-FUTURES burst_close_long', null],
  ['futures_fills:208:fee1', '208', 'fee1', iso(27), 'trading_fee', 'BTC', '-0.00001', 'BTCUSDH23', 'o208', 'COIN-FUTURES', null],
  ['futures_fills:208:pnl', '208', 'pnl', iso(27), 'realized_pnl', 'BTC', '0.004', 'BTCUSDH23', 'o208', 'COIN-FUTURES delivery_close_long', null],
  ['futures_tax_records:501:main', '501', 'main', iso(42), 'funding_fee', 'USDT', '-1.25', 'BTCUSDT', '501', 'USDT-FUTURES contract_main_settle_fee', null],
  ['futures_tax_records:503:main', '503', 'main', iso(44), 'transfer_in', 'USDT', '20', 'BTCUSDT', '503', 'USDT-FUTURES trans_from_exchange', null],
  ['futures_tax_records:504:main', '504', 'main', iso(45), 'funding_fee', 'USDT', '0.75', 'ETHUSDT', '504', 'USDT-FUTURES CONTRACT_MAIN_SETTLE_FEE_USER_IN', null],
  ['margin_records:101:main', '101', 'main', iso(0), 'transfer_in', 'USDT', '100', null, '101', 'crossed transfer_in', null],
  ['margin_records:102:main', '102', 'main', iso(1), 'transfer_out', 'USDT', '-40.5', null, '102', 'crossed transfer_out', null],
  ['margin_records:103:main', '103', 'main', iso(2), 'loan_borrow', 'BTC', '0.5', null, '103', 'crossed borrow', null],
  ['margin_records:104:main', '104', 'main', iso(3), 'loan_repay', 'BTC', '-0.25', null, '104', 'crossed repay', null],
  ['margin_records:105:main', '105', 'main', iso(4), 'interest', 'BTC', '-0.00001234', null, '105', 'crossed interest_repay', null],
  ['margin_records:106:main', '106', 'main', iso(5), 'liquidation_fee', 'USDT', '-3.2', null, '106', 'crossed liquidation_fee', null],
  ['margin_records:107:main', '107', 'main', iso(6), 'compensation', 'USDT', '1.1', null, '107', 'crossed compensate', null],
  ['margin_records:108:fee', '108', 'fee', iso(7), 'fee', 'BTC', '-0.000001', 'BTCUSDT', '108', 'isolated deal_in', 'margin_records:isolated:BTCUSDT:1748736007000'],
  ['margin_records:108:main', '108', 'main', iso(7), 'trade_in', 'BTC', '0.01', 'BTCUSDT', '108', 'isolated deal_in', 'margin_records:isolated:BTCUSDT:1748736007000'],
  ['margin_records:109:main', '109', 'main', iso(7), 'trade_out', 'USDT', '-650.25', 'BTCUSDT', '109', 'isolated deal_out', 'margin_records:isolated:BTCUSDT:1748736007000'],
  ['margin_records:110:main', '110', 'main', iso(7), 'trade_fee', 'BTC', '-0.000002', null, '110', 'isolated system_fee_in', 'margin_records:isolated:BTCUSDT:1748736007000'],
  ['margin_records:111:main', '111', 'main', iso(10), 'liquidation_loss', 'USDT', '-2', null, '111', 'crossed confiscated', null],
  ['margin_records:112:main', '112', 'main', iso(11), 'conversion_in', 'ETH', '0.3', null, '112', 'crossed exchange_in', 'margin_records:crossed::1748736011000'],
  ['margin_records:113:main', '113', 'main', iso(11), 'conversion_out', 'USDT', '-900', null, '113', 'crossed exchange_out', 'margin_records:crossed::1748736011000'],
  ['margin_records:114:main', '114', 'main', iso(12), 'unreviewed', 'USDT', '-12674', null, '114', 'marginTaxType special_transfer_out', null],
  ['margin_records:115:main', '115', 'main', iso(13), 'unreviewed', 'USDT', '-7.7', null, '115', 'marginTaxType special_refund', null],
  ['margin_records:116:main', '116', 'main', iso(14), 'margin_bonus', 'USDT', '5', null, '116', 'crossed margin_coupon_profit', null],
  ['p2p_tax_records:701:main', '701', 'main', iso(60), 'transfer_in', 'USDT', '100', null, '701', 'transfer-in', null],
  ['p2p_tax_records:702:main', '702', 'main', iso(61), 'p2p_buy', 'USDT', '10', null, '702', 'buy', null],
  ['p2p_tax_records:703:main', '703', 'main', iso(62), 'p2p_sell', 'USDT', '-4', null, '703', 'sell', null],
  ['spot_tax_records:601:main', '601', 'main', iso(50), 'interest_earned', 'USDT', '3.5', null, 'b601', 'Interest', null],
  ['spot_tax_records:603:main', '603', 'main', iso(52), 'transfer_in', 'USDT', '40', null, '603', 'Transfer in', null],
  ['spot_tax_records:604:main', '604', 'main', iso(53), 'fiat_deposit', 'EUR', '500', null, '604', 'Fiat deposit', null],
  ['spot_tax_records:605:main', '605', 'main', iso(54), 'fast_withdrawal_fee', 'USDT', '-0.8', null, '605', 'Fast withdrawal fee', null],
  ['spot_tax_records:606:main', '606', 'main', iso(55), 'spot_trade', 'SOL', '2', null, 'o77', 'Buy', 'spot_tax_records::o77:1748736055000'],
  ['spot_tax_records:607:main', '607', 'main', iso(55), 'spot_trade', 'USDT', '-300', null, 'o77', 'Sell', 'spot_tax_records::o77:1748736055000'],
  ['spot_tax_records:608:main', '608', 'main', iso(55), 'spot_fee', 'SOL', '-0.002', null, 'o77', 'Transaction fee deduct', 'spot_tax_records::o77:1748736055000'],
  ['spot_tax_records:609:main', '609', 'main', iso(56), 'airdrop', 'ARB', '12', null, '609', 'Airdrop Reward-A', null],
  ['withdrawals:301:fee', '301', 'fee', iso(30), 'withdrawal_fee', 'USDT', '-1', null, '0xabc', 'on_chain trc20', null],
  ['withdrawals:301:main', '301', 'main', iso(30), 'withdrawal', 'USDT', '-100', null, '0xabc', 'on_chain trc20', null],
  ['withdrawals:302:main', '302', 'main', iso(31), 'withdrawal', 'BTC', '-0.1', null, '302', 'internal_transfer', null],
  ['withdrawals:303:main', '303', 'main', iso(32), 'withdrawal', 'ETH', '-1', null, '0xdef', 'on_chain erc20', null],
];
