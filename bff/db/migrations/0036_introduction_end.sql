-- The agency's end of an introduction (decision 194, issue 62 point 3): when a member's contract
-- ends (renounced, withdrawn, terminated, at its term), their account is erased or disabled, or they
-- withdraw the consent that covers their photos, the chart records it in the context as `ended`
-- ({at, cause, party}), in the current round and in each earlier one. Rows written before carry
-- `"ended": null` everywhere, as the chart writes a round that was never ended.
UPDATE introductions
SET context = jsonb_set(
  context || '{"ended": null}'::jsonb,
  '{history}',
  coalesce(
    (SELECT jsonb_agg(round || '{"ended": null}'::jsonb ORDER BY n)
       FROM jsonb_array_elements(context -> 'history') WITH ORDINALITY AS rounds(round, n)),
    '[]'::jsonb
  )
)
WHERE NOT (context ? 'ended');
