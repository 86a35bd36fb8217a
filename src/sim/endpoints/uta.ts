import { badParam, SimApiError } from '../api-error.js';
import { balancesAt, keyFrom, PLACES } from '../data/accounts.js';
import { formatUnits } from '../data/decimal.js';
import type { Dataset } from '../data/types.js';
import { createRng } from '../data/rng.js';
import { checkDepth, checkWindow } from '../params.js';
import type { PartitionIndex } from '../store.js';
import { recordsJson, type Endpoint } from './endpoint.js';
import { pagedFacts, partFacts } from './stream-facts.js';

/**
 * The v3 endpoints of a unified account (docs/unified-accounts.md; docs/simulator.md, "A unified account"), each as its
 * page in the docs mirror describes it (sebastianganser/Bitget_API, uta/): windows, page sizes, cursor and rates.
 */

/** A classic key on a v3 endpoint: 40084 "Classic Account mode" (enarjord/passivbot#601; TraderAlice/OpenAlice#951). */
export const CLASSIC_REFUSED = (): SimApiError => new SimApiError(400, '40084', 'Classic Account mode');
/** A unified key on a classic endpoint: 40085 (ccxt/ccxt#26838). */
export const UNIFIED_REFUSED = (): SimApiError =>
  new SimApiError(
    400,
    '40085',
    'You are in Unified Account mode, and the Classic Account API is not supported at this time',
  );

/**
 * An endpoint that refuses every key of the other kind of account with `refusal`, at the rate of the path it stands
 * for.
 */
export function refusing(endpoint: Endpoint, refusal: () => SimApiError): Endpoint {
  return {
    path: endpoint.path,
    signed: endpoint.signed,
    ...(endpoint.rate === undefined ? {} : { rate: endpoint.rate }),
    handle: () => {
      throw refusal();
    },
  };
}

/**
 * GET /api/v3/account/settings: the account's settings in the shape of the docs' example, `accountMode` "unified"
 * (uta/account/Get-Account-Setting.md: 20/s).
 */
export function accountSettingsEndpoint(seed: string): Endpoint {
  const uid = String(createRng(`ledgerpipe-sim-user:${seed}`).int(1_000_000_000, 9_999_999_999));
  const json = JSON.stringify({
    uid,
    accountMode: 'unified',
    assetMode: 'multi_assets',
    holdMode: 'one_way_mode',
    stpMode: 'none',
    symbolConfigList: [],
    coinConfigList: [],
  });
  return { path: '/api/v3/account/settings', signed: true, rate: 20, handle: () => json };
}

/**
 * Pages below a cursor (a record id, exclusive), newest first, as the tax records' `cursor` is "the id returned from
 * the previous query".
 */
function cursorPage(
  index: PartitionIndex,
  q: { startTime: number; endTime: number; limit: number; cursor: string | undefined },
): number[] {
  return index.page({
    startTime: q.startTime,
    endTime: q.endTime,
    limit: q.limit,
    ...(q.cursor === undefined ? {} : { idLessThan: q.cursor }),
  });
}

/**
 * GET /api/v3/tax/records (uta/tax/Get-Tax-Records.md): bizType required (and marginType for MARGIN, crossed when
 * omitted), startTime and endTime required and at most 7 days apart, limit up to 500, `cursor` the last id of the
 * previous page; 1/s; a flat array, newest first.
 */
export function utaTaxRecordsEndpoint(
  partitions: ReadonlyMap<string, PartitionIndex>,
  options: { depthDays: number | undefined },
): Endpoint {
  const facts = pagedFacts('uta_tax_records');
  return {
    path: facts.path,
    signed: true,
    rate: facts.rate,
    handle({ params, now }) {
      const bizType = params.required('bizType').toUpperCase();
      const name = bizType === 'MARGIN' ? `MARGIN-${params.optional('marginType') ?? 'crossed'}` : bizType;
      const index = partitions.get(name);
      if (index === undefined) throw badParam(bizType === 'MARGIN' ? 'marginType' : 'bizType');
      const startTime = params.time('startTime', true);
      const endTime = params.time('endTime', true);
      checkWindow(startTime, endTime, facts.windowDays, 'interval');
      checkDepth(startTime, now, options.depthDays);
      const limit = params.limit(500, facts.pageMax);
      return recordsJson(index, cursorPage(index, { startTime, endTime, limit, cursor: params.id('cursor') }), true);
    },
  };
}

/**
 * The financial-record endpoints (uta/account/Get-Financial-Records.md): windows of at most 30 days, limit up to 100,
 * `{"list": [...], "cursor": "..."}` whose cursor is here the last record's id. The unified account's takes `category`
 * (required; 20/s); the funding account's none (10/s, its rate not being in the mirror).
 */
export function utaFinancialRecordsEndpoints(
  partitions: ReadonlyMap<string, PartitionIndex>,
  options: { depthDays: number | undefined },
): Endpoint[] {
  const [unified, funding] = [pagedFacts('uta_financial_records'), pagedFacts('uta_financial_records', 'funding')];
  const serve = (index: PartitionIndex, params: Parameters<Endpoint['handle']>[0]['params'], now: number): string => {
    const startTime = params.time('startTime', true);
    const endTime = params.time('endTime', true);
    checkWindow(startTime, endTime, unified.windowDays, 'interval');
    checkDepth(startTime, now, options.depthDays);
    const limit = params.limit(unified.pageMax, unified.pageMax);
    const page = cursorPage(index, { startTime, endTime, limit, cursor: params.id('cursor') });
    const last = page.length === 0 ? '' : index.recordAt(page[page.length - 1] as number).id;
    return `{"list":${recordsJson(index, page, true)},"cursor":${JSON.stringify(last)}}`;
  };
  return [
    {
      path: unified.path,
      signed: true,
      rate: unified.rate,
      handle({ params, now }) {
        const index = partitions.get(params.required('category').toUpperCase());
        if (index === undefined || index.name === 'funding') throw badParam('category');
        return serve(index, params, now);
      },
    },
    {
      path: funding.path,
      signed: true,
      rate: funding.rate,
      handle({ params, now }) {
        return serve(partitions.get('funding') as PartitionIndex, params, now);
      },
    },
  ];
}

/**
 * The unified account's balances (GET /api/v3/account/assets, uta/account/Get-Account.md) and its funding account's
 * (GET /api/v3/account/funding-assets, uta/account/Get-Account-Funding-Assets.md), at the server's present, in the
 * shapes of the docs' examples: only coins held.
 */
export function utaBalanceEndpoints(dataset: Dataset): Endpoint[] {
  const text = (u: bigint) => formatUnits(u, PLACES);
  const rows = (now: number, accountType: string) =>
    [...balancesAt(dataset.account, Math.min(now, (dataset.account.movements.at(-1)?.ts ?? 0) + 1))]
      .map(([k, units]) => ({ ...keyFrom(k), units }))
      .filter((r) => r.accountType === accountType && r.units !== 0n)
      .sort((a, b) => (a.asset < b.asset ? -1 : 1));
  const assets = partFacts('asset_balances', 'unified', 'uta');
  const fundingAssets = partFacts('asset_balances', 'funding', 'uta');
  return [
    {
      ...assets,
      signed: true,
      handle: ({ now }) =>
        JSON.stringify({
          accountEquity: '0',
          usdtEquity: '0',
          btcEquity: '0',
          unrealisedPnl: '0',
          usdtUnrealisedPnl: '0',
          btcUnrealizedPnl: '0',
          effEquity: '0',
          mmr: '0',
          imr: '0',
          mgnRatio: '0',
          positionMgnRatio: '0',
          assets: rows(now, 'unified').map((r) => ({
            coin: r.asset,
            equity: text(r.units),
            usdValue: '0',
            balance: text(r.units),
            available: text(r.units),
            debt: '0',
            locked: '0',
          })),
        }),
    },
    {
      ...fundingAssets,
      signed: true,
      handle: ({ now }) =>
        JSON.stringify(
          rows(now, 'funding').map((r) => ({
            coin: r.asset,
            available: text(r.units),
            frozen: '0',
            balance: text(r.units),
          })),
        ),
    },
  ];
}

/** A page of a copy-trading list: `{"list", "nextCursor"}`, the cursor empty on the last page. */
function listPage(
  index: PartitionIndex,
  q: { startTime: number; endTime: number; limit: number; cursor: string | undefined },
): string {
  const page = cursorPage(index, q);
  const last = page.length > 0 ? index.recordAt(page[page.length - 1] as number).id : '';
  return `{"list":${recordsJson(index, page, true)},"nextCursor":${JSON.stringify(page.length < q.limit ? '' : last)}}`;
}

/** The records of the project `projectId` names; one the account does not copy is a bad parameter (40020). */
function copiedProject(
  params: Parameters<Endpoint['handle']>[0]['params'],
  of: ReadonlyMap<string, PartitionIndex>,
): PartitionIndex {
  const index = of.get(params.required('projectId'));
  if (index === undefined) throw badParam('projectId');
  return index;
}

/**
 * A follower's copy-trading endpoints for the projects it copies (UnipayFI/go-bitget uta/copy_follower.go): the
 * transfer records (projectId; no time range; limit up to 100, default 20; `{"list", "nextCursor"}`), the profit-share
 * settlements (projectId, startTime, endTime; the same paging) and the project's current summary (current-copy, in
 * USDT: estValue its value). A project the account does not copy: 40020. Each 1/s (their rate is not documented
 * where ledgerpipe read).
 */
export function copyEndpoints(
  dataset: Dataset,
  partitions: { transfers: ReadonlyMap<string, PartitionIndex>; shares: ReadonlyMap<string, PartitionIndex> },
): Endpoint[] {
  const text = (u: bigint) => formatUnits(u, PLACES);
  const [transfers, shares] = [pagedFacts('copy_transfers'), pagedFacts('copy_profit_shares')];
  return [
    {
      path: transfers.path,
      signed: true,
      rate: transfers.rate,
      handle: ({ params }) =>
        listPage(copiedProject(params, partitions.transfers), {
          startTime: 0,
          endTime: Number.MAX_SAFE_INTEGER,
          limit: params.limit(20, transfers.pageMax),
          cursor: params.id('cursor'),
        }),
    },
    {
      path: shares.path,
      signed: true,
      rate: shares.rate,
      handle: ({ params }) =>
        listPage(copiedProject(params, partitions.shares), {
          startTime: params.time('startTime', false) ?? 0,
          endTime: params.time('endTime', false) ?? Number.MAX_SAFE_INTEGER,
          limit: params.limit(20, shares.pageMax),
          cursor: params.id('cursor'),
        }),
    },
    {
      ...partFacts('asset_balances', 'copy', 'uta'),
      signed: true,
      handle: ({ params, now }) => {
        const id = params.required('projectId');
        if (!partitions.transfers.has(id)) throw badParam('projectId');
        const at = Math.min(now, (dataset.account.movements.at(-1)?.ts ?? 0) + 1);
        const held =
          [...balancesAt(dataset.account, at)]
            .map(([k, units]) => ({ ...keyFrom(k), units }))
            .find((r) => r.accountType === 'copy' && r.symbol === id)?.units ?? 0n;
        return JSON.stringify({
          eliteTrader: 'SimElite',
          estNetProfit: '0',
          profitShare: '0',
          estValue: text(held),
          available: text(held),
          currentInvestment: '0',
        });
      },
    },
  ];
}

/**
 * A classic account's lead-trader profit shares (GET /api/v2/copy/mix-trader/profit-history-details): the simulated
 * accounts are no lead traders, answered as the docs' error codes say: 40732 "Not currently a trader"
 * (copytrading/error-code/restapi.md). 5/s.
 */
export function leadTraderEndpoint(): Endpoint {
  const facts = pagedFacts('lead_trader_profits');
  return {
    path: facts.path,
    signed: true,
    rate: facts.rate,
    handle: () => {
      throw new SimApiError(400, '40732', 'Not currently a trader');
    },
  };
}

/**
 * The open crypto loans (docs/completeness.md, "Open loans"): a classic account's GET /api/v2/earn/loan/ongoing-orders
 * (10/s) and a unified account's GET /api/v3/loan/borrow-ongoing, both answering the data set's open loans (the retail
 * and stress accounts have none).
 */
export function loanEndpoints(dataset: Dataset): { classic: Endpoint; unified: Endpoint } {
  const json = JSON.stringify(dataset.openLoans ?? []);
  return {
    classic: { ...partFacts('loans', 'crypto_loans'), signed: true, handle: () => json },
    unified: { ...partFacts('loans', 'crypto_loans', 'uta'), signed: true, handle: () => json },
  };
}
