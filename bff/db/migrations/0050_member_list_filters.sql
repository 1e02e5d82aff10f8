-- The member list's filters and sorts (issue 63 point 3, issue 64, decision 210), answered by the
-- database (bff/dashboard/member-list.ts). Each expression is the list's, character for character:
-- PostgreSQL uses an expression index only for the same expression. Partial on members: the list
-- reads only them (`role = 'member'`).

-- Age range, and the « Âge » sort: the birth date of step 1 (ISO text sorts as dates).
CREATE INDEX members_birth_date ON members ((profile->>'birthDate')) WHERE role = 'member';
-- Region: the postcode's département (its first two digits).
CREATE INDEX members_postcode_departement ON members (left(profile->>'postcode', 2)) WHERE role = 'member';
-- Practice (only for members who consented: the list adds that condition).
CREATE INDEX members_prayer_practice ON members ((profile->>'prayerPractice')) WHERE role = 'member';
-- Sex, in the default order (newest first).
CREATE INDEX members_gender_created_at ON members (gender, created_at) WHERE role = 'member';
-- The « Nom » sort: first name then last name, in lower case.
CREATE INDEX members_name_key ON members (lower(coalesce(profile->>'firstName', '') || ' ' || coalesce(profile->>'lastName', '')))
  WHERE role = 'member';
