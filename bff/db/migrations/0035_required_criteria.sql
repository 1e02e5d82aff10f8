-- Indispensable and wished criteria (decision 193): each member marks which criteria of their
-- questionnaire are indispensable (they exclude, both ways) and answers two new questions (their
-- wish for children, whether they would move). Derived by machines/matching/criteria.ts
-- `profileFromOnboarding`, written by bff/matching/candidates.ts `writeMatchProfiles`.
--
-- Rows of questionnaires saved before: no answer to the new questions ('inconnu', NULL), and as
-- indispensable exactly the criteria that excluded until now (age, regions, practice, children),
-- as the derivation says of such a questionnaire; so no member's list changes until they answer.
ALTER TABLE match_profiles
  ADD COLUMN wants_children text NOT NULL DEFAULT 'inconnu' CHECK (wants_children IN ('oui', 'non', 'peut-etre', 'inconnu')),
  ADD COLUMN ready_to_relocate boolean,
  ADD COLUMN required_criteria text[] NOT NULL DEFAULT '{age,region,pratique,enfants}';
-- Every later write names them.
ALTER TABLE match_profiles ALTER COLUMN wants_children DROP DEFAULT, ALTER COLUMN required_criteria DROP DEFAULT;

