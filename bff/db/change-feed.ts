/**
 * The `member_changed` notifications of migration 0007, as heard by this server instance
 * (docs/decisions/090-member-cache.md). Readers may cache member rows only while the feed is
 * `live`: while every committed change, made by any instance or by hand, reaches this process.
 */
export const MEMBER_CHANNEL = 'member_changed';

/**
 * `null`: anything may have changed (truncation, or the feed was interrupted or restored).
 * `transaction`: the id of the transaction that changed the member row (migration 0028); absent
 * for the auth store's session changes.
 */
export type MemberChangeListener = (memberId: string | null, transaction?: string) => void;

export class MemberChangeFeed {
  #live = false;
  readonly #listeners = new Set<MemberChangeListener>();

  /** True while every committed change is heard; caching is allowed only then. */
  get live(): boolean {
    return this.#live;
  }

  subscribe(listener: MemberChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A notification's payload: `<member id> <transaction id>`, a member id alone, or '*' for every member. */
  announce(payload: string | undefined): void {
    if (!payload || payload === '*') {
      for (const listener of this.#listeners) listener(null);
      return;
    }
    const space = payload.indexOf(' ');
    const memberId = space < 0 ? payload : payload.slice(0, space);
    const transaction = space < 0 ? undefined : payload.slice(space + 1);
    for (const listener of this.#listeners) listener(memberId, transaction);
  }

  /** Going live or losing the feed both forget everything: changes may have been missed. */
  setLive(live: boolean): void {
    this.#live = live;
    for (const listener of this.#listeners) listener(null);
  }
}
