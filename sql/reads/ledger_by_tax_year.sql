-- One account's (lp_account) ledger movements per tax year and asset, as the gains name the years
-- (docs/settings.md): a year starts on lp_tax_year_start (MM-DD) in the time zone lp_time_zone, and is named
-- 2025, or 2025-26 when it does not start on 1 January. Read by src/reads/reports.ts for `status`.
-- creates: -
-- reads: ledger, lp_total
-- params: lp_account, lp_tax_year_start, lp_time_zone
WITH dated AS (
       SELECT CAST(timezone(getvariable('lp_time_zone'), ts) AS DATE) AS day, asset, amount FROM ledger WHERE account = getvariable('lp_account')
     ), named AS (
       SELECT CASE WHEN strftime(day, '%m-%d') >= getvariable('lp_tax_year_start') THEN year(day) ELSE year(day) - 1 END AS y, asset, amount FROM dated
     )
     SELECT CASE WHEN getvariable('lp_tax_year_start') = '01-01' THEN CAST(y AS VARCHAR) ELSE y || '-' || lpad(CAST((y + 1) % 100 AS VARCHAR), 2, '0') END AS yr, asset, lp_total(amount) AS net
     FROM named GROUP BY y, asset ORDER BY y, asset;
