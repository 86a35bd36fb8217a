/**
 * How an asset is priced in USDT (docs/values.md): through its USDT pair; else through its USDC pair times
 * USDCUSDT; else through its BTC pair times BTCUSDT; else not at all (unpriced, listed, never guessed). USDT
 * is the quote itself. Other stablecoins are priced like any asset, by their own pair: a peg is not assumed.
 */
export interface Route {
  /** The pair the asset's price is read from. */
  symbol: string;
  /** The pair that turns that price into USDT, when the first is not quoted in USDT. */
  via?: string;
}

/** The routes to try for `asset`, in order. */
export function routeCandidates(asset: string): Route[] {
  const routes: Route[] = [{ symbol: `${asset}USDT` }];
  if (asset !== 'USDC') routes.push({ symbol: `${asset}USDC`, via: 'USDCUSDT' });
  if (asset !== 'BTC') routes.push({ symbol: `${asset}BTC`, via: 'BTCUSDT' });
  return routes;
}
