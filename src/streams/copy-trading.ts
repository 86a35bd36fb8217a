import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, text, tsColumn } from './table.js';
import { field, key, partition, time } from './source.js';
import { defineStream, type PageRead } from './stream.js';
import { listCursorPage } from './uta-financial-records.js';

/**
 * Copy trading (docs/unified-accounts.md, "Copy trading"). A follower of a unified account copies in a copy-trading
 * account of its own per project ("you must transfer funds to your dedicated copy trading account ... completely
 * independent from your main account": the platform's copier guide, 2026-01-09,
 * https://www.bitget.com/support/articles/12560603847571). The v3 follower endpoints need the project's id, which no
 * endpoint lists: the account's config names the projects (`copyTrading.projects`), one partition each. Their pages
 * are `{"list": [...], "nextCursor": "..."}` (UnipayFI/go-bitget uta/copy_follower.go: "paginated by cursor (pass
 * the previous response's nextCursor)"; limit "default 20, max 100"); their records carry no id. Their rate is not in
 * the sources read: 1 request a second, the lead trader's transfer records' (research notes, [GO:uta/copy.go]).
 */

/**
 * GET /api/v3/copy/futures/copy-transfer-record (projectId; "UTA mgt. read"): every transfer of the project's copy
 * account, with no time range asked (the endpoint takes none): one window per run's range. A record is keyed by its
 * time, sides, coin and amount (it has no id): two transfers alike in all of them in one millisecond would be one.
 */
export const copyTransfers = defineStream({
  kind: 'paged',
  name: 'copy_transfers',
  path: '/api/v3/copy/futures/copy-transfer-record',
  partitions: [],
  optIn: 'copyProjects',
  accountModes: ['uta'],
  windowless: true,
  maxWindowDays: 36_600,
  pageLimit: 100,
  ratePerSecond: 1,
  cursor: { param: 'cursor', descending: false },
  keyField: 'createdTime',
  keyOf: (r) =>
    `${String(r['createdTime'])}:${String(r['fromType'])}:${String(r['toType'])}:${String(r['coin'])}:${String(r['amount'])}`,
  readPage: listCursorPage(undefined, 'nextCursor'),
  table: {
    name: 'copy_transfers',
    kind: 'view',
    description:
      'A follower\'s transfers into and out of a copy-trading project\'s account (GET /api/v3/copy/futures/copy-transfer-record), one row per transfer (sql/models/copy_transfers.sql; docs/unified-accounts.md, "Copy trading").',
    typedAtLoad: { partitionColumn: 'project_id' },
    keyColumn: 'transfer_key',
    ledger: 'paired',
    // A follower's transfer into or out of a project's copy account (fromType and toType: funding, uta, otc, copy):
    // its fields, each checked beside its column.
    columns: [
      accountColumn,
      text('project_id', "The copy-trading project (its projectId, from the account's config).", partition()),
      text('transfer_key', "The record's key: its time, sides, coin and amount (the record has no id).", key()),
      text('from_type', 'Where it came from (`fromType`: funding, uta, otc, copy).', field('fromType', z.string())),
      text('to_type', 'Where it went (`toType`: funding, uta, otc, copy).', field('toType', z.string())),
      text('coin', 'The coin (`coin`).', field('coin', z.string())),
      amount('amount', 'The amount (`amount`), as written.', field('amount', decimalString)),
      text(
        'status',
        'successful, failed or processing (`status`): only a successful one moved money.',
        field('status', z.string()),
      ),
      tsColumn('createdTime', msString),
    ],
  },
});

/**
 * GET /api/v3/copy/futures/copy-profit-details (projectId, startTime, endTime, limit, cursor; "UTA trade read"): the
 * follower's profit-sharing settlements of a project. Its widest window is not in the sources read: 30 days, narrowed
 * if refused. A settlement is keyed by its time within its project (it has no id). Amounts in USDT: the follower's
 * current-copy amounts "are all in USDT" (go-bitget); the settlements name no coin.
 */
export const copyProfitShares = defineStream({
  kind: 'paged',
  name: 'copy_profit_shares',
  path: '/api/v3/copy/futures/copy-profit-details',
  partitions: [],
  optIn: 'copyProjects',
  accountModes: ['uta'],
  maxWindowDays: 30,
  pageLimit: 100,
  ratePerSecond: 1,
  cursor: { param: 'cursor', descending: false },
  keyField: 'settleTime',
  optionalFields: ['profit', 'allocatedPnl', 'pendingPnl', 'shareRatio'],
  readPage: listCursorPage('settleTime', 'nextCursor'),
  table: {
    name: 'copy_profit_shares',
    kind: 'view',
    description:
      'A follower\'s profit-share settlements per copy-trading project (GET /api/v3/copy/futures/copy-profit-details), one row each (sql/models/copy_profit_shares.sql; docs/unified-accounts.md, "Copy trading").',
    typedAtLoad: { partitionColumn: 'project_id' },
    keyColumn: 'settle_key',
    ledger: 'paired',
    // One settlement of a follower's profit share (settleTime, profit, allocatedPnl, pendingPnl, shareRatio,
    // shareProfit): its fields, each checked beside its column; the key is its settleTime.
    columns: [
      accountColumn,
      text('project_id', "The copy-trading project (its projectId, from the account's config).", partition()),
      text(
        'settle_key',
        "The record's key: its settlement time (the record has no id).",
        key(field('settleTime', msString)),
      ),
      amount(
        'profit',
        "The follower's profit of the period (`profit`), as written; not booked (its meaning beside allocatedPnl is not settled).",
        field('profit', optionalDecimalString),
      ),
      amount(
        'allocated_pnl',
        '`allocatedPnl` ("settled PnL"), as written; not booked.',
        field('allocatedPnl', optionalDecimalString),
      ),
      amount(
        'pending_pnl',
        '`pendingPnl` ("unsettled PnL"), as written; not booked.',
        field('pendingPnl', optionalDecimalString),
      ),
      amount(
        'share_ratio',
        'The profit-sharing ratio (`shareRatio`), a fraction.',
        field('shareRatio', optionalDecimalString),
      ),
      amount(
        'share_profit',
        'The share of profit paid to the lead trader (`shareProfit`), in USDT: booked as a cost.',
        field('shareProfit', decimalString),
      ),
      tsColumn('settleTime', time(field('settleTime'))),
    ],
  },
});

/** The docs' page: `data` is `{"profitList": [...], "endId": "..."}`, idLessThan = endId. */
function profitListPage(data: unknown): PageRead {
  if (data === null || data === undefined) return { records: [], cursor: undefined };
  const page = z
    .object({ profitList: z.array(z.unknown()).nullish(), endId: z.string().nullish() })
    .loose()
    .parse(data);
  return { records: page.profitList ?? [], cursor: page.endId ?? undefined };
}

/**
 * The platform's refusals of a follower's key on a lead trader's endpoint ("The user is not a trader", "Not currently a
 * trader").
 */
const NOT_A_TRADER = new Set(['31001', '31025', '40732']);

/**
 * GET /api/v2/copy/mix-trader/profit-history-details, "Get History Profit Share Detail" (a classic account's lead
 * trader: https://www.bitget.com/api-doc/copytrading/future-copytrade/trader/Trader-Profit-History-Details, mirror
 * copytrading/future-copytrade/trader/Trader-Profit-History-Details.md): "Rate Limit: 5 req/sec/UID"; startTime and
 * endTime "The maximum time span supported is three months"; limit "Default: 100, maximum: 100"; idLessThan = endId.
 * Read for an account whose config says it is a lead trader; the docs' error codes 31001 and 31025 ("The user is not
 * a trader") and 40732 ("Not currently a trader") (copytrading/error-code/restapi.md) mean it has no shares.
 */
export const leadTraderProfits = defineStream({
  kind: 'paged',
  name: 'lead_trader_profits',
  path: '/api/v2/copy/mix-trader/profit-history-details',
  partitions: [{ name: '', params: {} }],
  optIn: 'leadTrader',
  maxWindowDays: 90,
  pageLimit: 100,
  ratePerSecond: 5,
  emptyWhen: (e) => NOT_A_TRADER.has(e.platformCode),
  keyField: 'profitId',
  optionalFields: ['nickName'],
  readPage: profitListPage,
  table: {
    name: 'lead_trader_profits',
    kind: 'view',
    description:
      'A lead trader\'s profit shares received from followers (GET /api/v2/copy/mix-trader/profit-history-details), one row per share (sql/models/lead_trader_profits.sql; docs/unified-accounts.md, "Copy trading").',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'profit_id',
    ledger: 'paired',
    // A lead trader's profit share received: profitId, coin, profit, nickName, profitTime, each checked beside its
    // column.
    columns: [
      accountColumn,
      text('profit_id', "The profit share's id (`profitId`).", field('profitId', idString)),
      // Upper case, as every record writes a coin (the docs' example writes usdt).
      text(
        'coin',
        "The settlement coin (`coin`), upper-cased (the docs' example writes usdt).",
        field('coin', z.string(), { upper: true }),
      ),
      amount(
        'profit',
        'The share distributed to the lead trader (`profit`, "Distributed").',
        field('profit', decimalString),
      ),
      text(
        'nick_name',
        "The follower's alias (`nickName`); NULL when empty.",
        field('nickName', optionalText, { emptyAsNull: true }),
      ),
      tsColumn('profitTime', msString),
    ],
  },
});
