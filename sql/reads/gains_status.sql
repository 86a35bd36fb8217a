-- What `status` says of one account's (lp_account) gains (docs/gains.md): the last computation's method and unit,
-- its disposal slices, and the slices nothing matched, each asset with its quantity as text. Read by
-- src/gains/gains.ts (readGainsStatus).
-- creates: -
-- reads: disposals
-- params: lp_account
SELECT any_value(cost_basis), any_value(unit), count(*) FILTER (WHERE is_disposal),
         list({'asset': asset, 'quantity': quantity::VARCHAR} ORDER BY asset) FILTER (WHERE match_rule = 'unmatched')
       FROM disposals WHERE account = getvariable('lp_account');
