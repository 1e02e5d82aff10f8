/** A text entry of a `FormData` (`''` when absent or a file). */
export function textOf(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
