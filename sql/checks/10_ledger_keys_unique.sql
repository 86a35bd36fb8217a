-- Check: every ledger entry appears once per account. Each row returned is a problem.
-- creates: -
-- reads: ledger
-- params: -
SELECT 'ledger keys are unique' AS check_name,
       'entry ' || entry_id || ' of account ' || account || ' appears ' || count(*) || ' times' AS problem
FROM ledger
GROUP BY account, entry_id
HAVING count(*) > 1;
