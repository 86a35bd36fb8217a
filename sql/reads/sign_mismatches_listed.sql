-- The first lp_listed sign mismatches of each account (a step that adds up only with the record's movement
-- reversed; docs/completeness.md), in time order, amounts as exact text (src/reads/completeness.ts).
-- creates: -
-- reads: lp_decimal_text, sign_mismatches
-- params: lp_listed
SELECT account, stream, partition, asset, source_id, epoch_ms(ts) AS ts_ms, field, type, lp_decimal_text(amount) AS amount,
       lp_decimal_text(booked) AS booked, lp_decimal_text(step) AS step FROM sign_mismatches
     QUALIFY row_number() OVER (PARTITION BY account ORDER BY ts_ms, source_id) <= getvariable('lp_listed') ORDER BY account, ts_ms, source_id;
