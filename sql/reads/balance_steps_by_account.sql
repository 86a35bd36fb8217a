-- Per account, the running-balance steps checked and those not (a record with a fee), and the breaks and sign
-- mismatches among the checked ones (docs/completeness.md, "Running balances"): read for the run summary, `status`,
-- manifest.json and the report (src/reads/completeness.ts). The chains are walked once for all of these.
-- creates: -
-- reads: lp_balance_steps
-- params: -
SELECT account, count(*) FILTER (WHERE checked) AS checked, count(*) FILTER (WHERE previous IS NOT NULL AND NOT checked) AS unchecked,
       count(*) FILTER (WHERE checked AND broken AND NOT reversed) AS breaks, count(*) FILTER (WHERE checked AND broken AND reversed) AS reversed
     FROM lp_balance_steps() GROUP BY account ORDER BY account;
