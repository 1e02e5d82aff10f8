-- A richer matching profile, within the law (issue 62 point 8, decision 208). Step 1 may now say the
-- languages spoken, the level of education and the height; and, under the explicit consent to
-- sensitive data like the prayer practice, the school of thought (madhhab). They rank (shared
-- language, same level, same school) and staff filter by language and school; they never exclude.
-- Derived by machines/matching/criteria.ts `profileFromOnboarding`, written by
-- bff/matching/candidates.ts `writeMatchProfiles`. Rows saved before: no answer (empty, NULL).
-- The hijab and the beard stay in the member's answers only (staff read them on the file).
-- No column, here or anywhere, says an ethnic or national origin (CNIL).
ALTER TABLE match_profiles
  ADD COLUMN languages text[] NOT NULL DEFAULT '{}',
  ADD COLUMN education_level text,
  ADD COLUMN height_cm smallint CHECK (height_cm IS NULL OR height_cm BETWEEN 130 AND 230),
  ADD COLUMN madhhab text CHECK (madhhab IS NULL OR madhhab IN ('hanafite', 'malikite', 'chafiite', 'hanbalite', 'sans-preference'));
