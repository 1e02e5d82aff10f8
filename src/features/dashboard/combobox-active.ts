/**
 * Which option of the recipient combobox is current, kept by the member's id rather than by
 * position: results that arrive after the arrows moved (a search for the text typed last, still
 * on its way when ↓ was pressed on the previous results) keep the member the arrows reached when
 * that member is still in the list, instead of dropping the choice under the user's fingers.
 */
export interface Identified {
  id: string;
}

/** The current option once new results arrive: the same member if still listed, else none. */
export function keepActive(activeId: string | null, found: readonly Identified[]): string | null {
  return activeId !== null && found.some((m) => m.id === activeId) ? activeId : null;
}

/**
 * The option ↓ (`step` 1) or ↑ (`step` -1) leads to, wrapping round; from no current option, ↓
 * reaches the first and ↑ the last. Null when the list is empty.
 */
export function moveActive(items: readonly Identified[], activeId: string | null, step: 1 | -1): string | null {
  if (items.length === 0) return null;
  const at = activeId === null ? -1 : items.findIndex((m) => m.id === activeId);
  const next = at < 0 ? (step === 1 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
  return items[next]?.id ?? null;
}
