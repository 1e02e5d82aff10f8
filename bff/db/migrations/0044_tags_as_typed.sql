-- Tags keep the case they were typed in (issue 63, decision 203): « VIP » stays « VIP ». One tag
-- per member whatever the case: `tag_key` is the tag in lower case (machines/follow-up, `tagKey`),
-- unique per member, and what filtering, removing and counting compare. Tags stored until now
-- were lower-cased on the way in: their key is themselves.
ALTER TABLE member_tags ADD COLUMN tag_key text;
UPDATE member_tags SET tag_key = tag;
ALTER TABLE member_tags ALTER COLUMN tag_key SET NOT NULL;
ALTER TABLE member_tags ADD CONSTRAINT member_tags_key_length CHECK (char_length(tag_key) BETWEEN 1 AND 40);
CREATE UNIQUE INDEX member_tags_member_key ON member_tags (member_id, tag_key);
CREATE INDEX member_tags_key ON member_tags (tag_key);
