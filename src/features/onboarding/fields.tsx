/** Options of a French label map, for RadioGroup / CheckboxGroup (`radio-group.tsx`). */
export function optionsOf(labels: Record<string, string>): { value: string; label: string }[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}
