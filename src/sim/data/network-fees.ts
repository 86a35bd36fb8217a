/**
 * What a withdrawal costs on each network the retail account withdraws on, in units of 10^-8 of the coin: the
 * platform's own figure, `chains[].withdrawFee` of GET /api/v2/spot/public/coins
 * (https://www.bitget.com/api-doc/spot/market/Get-Coin-List; mirrored in sebastianganser/Bitget_API,
 * spot/market/Get-Coin-List.md).
 *
 * - USDT on TRC20 `"1"` and on ERC20 `"3"`: a live answer of that endpoint (requestTime 1747156361660, 2025-05-13)
 *   recorded by ccxt as a test fixture (ccxt/ccxt, ts/src/test/static/response/bitget.json, fetchCurrencies).
 * - BTC on its own chain: no live figure was found. The docs' example answer says `"0.005"`, but it is a sample (its
 *   `browserUrl` is a testnet explorer's), so the simulator charges 0.0005 BTC, a tenth of it (a figure of our
 *   choosing, not the platform's), and holds the docs' 0.005 as the most a BTC withdrawal may cost (NETWORK_FEE_CAPS).
 *
 * @example
 * NETWORK_FEES['USDT:trc20']; // => 100000000n (1 USDT)
 */
export const NETWORK_FEES: Readonly<Record<string, bigint>> = {
  'USDT:trc20': 100_000_000n,
  'USDT:erc20': 300_000_000n,
  'BTC:btc': 50_000n,
};

/**
 * The figure each fee in NETWORK_FEES is held to: the cited one (for BTC, the docs' example). A test holds every
 * withdrawal fee of the retail account at or below it.
 *
 * @example
 * NETWORK_FEE_CAPS['BTC:btc']; // => 500000n (0.005 BTC)
 */
export const NETWORK_FEE_CAPS: Readonly<Record<string, bigint>> = {
  'USDT:trc20': 100_000_000n,
  'USDT:erc20': 300_000_000n,
  'BTC:btc': 500_000n,
};
