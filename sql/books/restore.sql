-- Puts back what snapshot.sql copied: the opening lots, the user's catalog and the rates of a file.
-- creates: -
-- reads: fiat_rates, lp_before_fiat_rates, lp_before_opening_lots, lp_before_user_catalog, opening_lots, user_catalog
-- params: -
DELETE FROM opening_lots;
INSERT INTO opening_lots SELECT * FROM lp_before_opening_lots;
DELETE FROM user_catalog;
INSERT INTO user_catalog SELECT * FROM lp_before_user_catalog;
DELETE FROM fiat_rates;
INSERT INTO fiat_rates SELECT * FROM lp_before_fiat_rates;
