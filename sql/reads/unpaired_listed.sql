-- The first lp_listed unpaired transfers of each account, in time order, amounts as exact text
-- (docs/completeness.md, "Internal transfers"; src/reads/completeness.ts).
-- creates: -
-- reads: lp_decimal_text, unpaired_transfers
-- params: lp_listed
SELECT account, stream, account_type, asset, source_id, epoch_ms(ts) AS ts_ms, lp_decimal_text(amount) AS amount, possible_reason
     FROM unpaired_transfers QUALIFY row_number() OVER (PARTITION BY account ORDER BY ts_ms, source_id) <= getvariable('lp_listed') ORDER BY account, ts_ms, source_id;
