-- The withdrawals and deposits created in [lp_from, lp_to) that were not final at its end (docs/report.md): those
-- whose status may still change now (open: lp_open_withdrawals, lp_open_deposits, the statuses of
-- src/streams/open-statuses.ts) and those that became final after the end (their u_time), per account, stream,
-- state and asset, with their sizes' exact sum; of one account (lp_account) or all (NULL). The ledger leaves out
-- what did not move: these are what a year-end should mention. Read by src/reads/reports.ts.
-- creates: -
-- reads: deposits, lp_total, withdrawals
-- params: lp_account, lp_from, lp_open_deposits, lp_open_withdrawals, lp_to
WITH moving AS (
  SELECT account, 'withdrawals' AS stream, coin AS asset, status, u_time, ts, size, list_contains(getvariable('lp_open_withdrawals'), status) AS open
  FROM withdrawals
  UNION ALL
  SELECT account, 'deposits' AS stream, coin AS asset, status, u_time, ts, size, list_contains(getvariable('lp_open_deposits'), status) AS open
  FROM deposits
)
SELECT account, stream, asset, CASE WHEN open THEN 'open' ELSE 'final later' END AS state, count(*) AS n, lp_total(size) AS total
FROM moving
WHERE ts >= getvariable('lp_from') AND ts < getvariable('lp_to')
  AND (open OR u_time >= getvariable('lp_to'))
  AND (getvariable('lp_account') IS NULL OR account = getvariable('lp_account'))
GROUP BY ALL ORDER BY account, stream, state, asset;
