-- Per account, how many transfers no record pairs (docs/completeness.md, "Internal transfers"): listed, not
-- findings. Read by src/reads/completeness.ts.
-- creates: -
-- reads: unpaired_transfers
-- params: -
SELECT account, count(*) AS unpaired FROM unpaired_transfers GROUP BY account ORDER BY account;
