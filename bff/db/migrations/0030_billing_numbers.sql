-- One numbering width for invoices and credit notes (decision 186): a credit note's rank takes
-- 6 digits, as an invoice's does ("AV-2026-000001", "2026-000001"). A credit note already issued
-- keeps its number (a number printed on an issued document never changes): its 5 digits and its
-- rank keep their meaning, the same place in the same year's gap-free sequence, which the counter
-- continues. Every number must spell its own year and rank.
ALTER TABLE credit_notes DROP CONSTRAINT credit_notes_number_check;
ALTER TABLE credit_notes ADD CONSTRAINT credit_notes_number_check CHECK (
  number ~ '^AV-[0-9]{4}-[0-9]{5,6}$'
  AND substr(number, 4, 4) = year::text
  AND substr(number, 9)::integer = rank
);
ALTER TABLE invoices ADD CONSTRAINT invoices_number_rank_check CHECK (
  substr(number, 1, 4) = year::text AND substr(number, 6)::integer = rank
);
