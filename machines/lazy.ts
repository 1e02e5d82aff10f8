/**
 * A value made at its first use, then kept. For `Intl` formatters: each costs milliseconds to
 * build (ICU loads its locale and time-zone data), which a page's start must not pay, in one long
 * task while its modules are evaluated, for formatters that it may never use (decision 158).
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
