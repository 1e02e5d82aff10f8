-- Height in the ranking and the practice's details in the staff's filters (issue 62 point 8,
-- decision 212). Step 2 may now say a wished height (« de … à … cm », either bound optional): a
-- wish that ranks, never excludes. The hijab and the beard (sensitive data, under the explicit
-- consent like the practice and the school) are copied here so that staff can filter on them; they
-- are cleared with the school when the consent is withdrawn (bff/privacy/consents.ts), and the row
-- is deleted at erasure. Derived by machines/matching/criteria.ts `profileFromOnboarding`, written
-- by bff/matching/match-profile-store.ts `writeMatchProfiles`. Rows saved before: no answer (NULL).
ALTER TABLE match_profiles
  ADD COLUMN sought_height_min smallint CHECK (sought_height_min IS NULL OR sought_height_min BETWEEN 130 AND 230),
  ADD COLUMN sought_height_max smallint CHECK (sought_height_max IS NULL OR sought_height_max BETWEEN 130 AND 230),
  ADD COLUMN hijab text CHECK (hijab IS NULL OR hijab IN ('oui', 'parfois', 'non')),
  ADD COLUMN beard text CHECK (beard IS NULL OR beard IN ('oui', 'non'));
