import { badParam } from '../api-error.js';
import type { Payload } from '../data/types.js';
import type { Params } from '../params.js';
import type { Endpoint } from './endpoint.js';
import { partFacts } from './stream-facts.js';

/** GET /api/v2/account/all-account-balance (spec section 10): signed, 1/s, no parameters. */
export function allAccountBalanceEndpoint(balances: readonly Payload[]): Endpoint {
  const json = JSON.stringify(balances);
  return { ...partFacts('account_balances', ''), signed: true, handle: () => json };
}

/** GET /api/v2/public/time: unsigned; the clock clients sign against (docs/platform.md, "Requests and signing"). */
export function publicTimeEndpoint(): Endpoint {
  return {
    path: '/api/v2/public/time',
    signed: false,
    handle: ({ now }) => `{"serverTime":"${now}"}`,
  };
}

const CONTRACT_SYMBOLS: Record<string, readonly (readonly [string, string, readonly string[]])[]> = {
  'SUSDT-FUTURES': [
    ['SBTC', 'SUSDT', ['SUSDT']],
    ['SETH', 'SUSDT', ['SUSDT']],
    ['SEOS', 'SUSDT', ['SUSDT']],
  ],
  'SCOIN-FUTURES': [
    ['SBTC', 'SUSD', ['SBTC', 'SETH', 'SEOS']],
    ['SETH', 'SUSD', ['SBTC', 'SETH', 'SEOS']],
  ],
  'SUSDC-FUTURES': [
    ['SBTC', 'SUSDC', ['SUSDC']],
    ['SETH', 'SUSDC', ['SUSDC']],
  ],
  'USDT-FUTURES': [
    ['BTC', 'USDT', ['USDT']],
    ['ETH', 'USDT', ['USDT']],
    ['SOL', 'USDT', ['USDT']],
    ['XRP', 'USDT', ['USDT']],
  ],
  'COIN-FUTURES': [
    ['BTC', 'USD', ['BTC', 'ETH']],
    ['ETH', 'USD', ['BTC', 'ETH']],
  ],
  'USDC-FUTURES': [
    ['BTC', 'PERP', ['USDC']],
    ['ETH', 'PERP', ['USDC']],
  ],
};

function contract([baseCoin, quoteCoin, supportMarginCoins]: readonly [string, string, readonly string[]]): Payload {
  return {
    baseCoin,
    quoteCoin,
    symbol: `${baseCoin}${quoteCoin}`,
    symbolStatus: 'normal',
    symbolType: 'perpetual',
    supportMarginCoins,
    buyLimitPriceRatio: '0.01',
    sellLimitPriceRatio: '0.01',
    feeRateUpRatio: '0.005',
    openCostUpRatio: '0.01',
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
    minTradeNum: '0.001',
    sizeMultiplier: '0.001',
    priceEndStep: '1',
    pricePlace: '1',
    volumePlace: '3',
    limitOpenTime: '-1',
    maintainTime: '',
    offTime: '-1',
    deliveryTime: '',
    deliveryStartTime: '',
    launchTime: '',
    fundInterval: '8',
    minLever: '1',
    maxLever: '125',
    posLimit: '0.05',
  };
}

/** GET /api/v2/mix/market/contracts (spec section 3): unsigned; productType required, either case. */
export function contractsEndpoint(): Endpoint {
  const byType = new Map(
    Object.entries(CONTRACT_SYMBOLS).map(([type, list]) => [type, JSON.stringify(list.map(contract))]),
  );
  return {
    path: '/api/v2/mix/market/contracts',
    signed: false,
    handle: ({ params }: { params: Params }) => {
      const json = byType.get(params.required('productType').toUpperCase());
      if (json === undefined) throw badParam('productType');
      return json;
    },
  };
}
