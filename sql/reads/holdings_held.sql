-- How many of the instants asked for (lp_holding_instants) holding_quantities already holds
-- (src/reads/completeness.ts, ensureHoldingsAt): all of them, and the holdings need not be made again.
-- creates: -
-- reads: holding_quantities
-- params: lp_holding_instants
SELECT count(DISTINCT as_of) AS n FROM holding_quantities WHERE list_contains(getvariable('lp_holding_instants'), as_of);
