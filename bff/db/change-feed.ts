/**
 * The `member_changed` notifications of migration 0007, as heard by this server instance
 * (docs/decisions/090-member-cache.md). Readers may cache member rows only while the feed is
 * `live`: while every committed change, made by any instance or by hand, reaches this process.
 */
export const MEMBER_CHANNEL = 'member_changed';

/** `null`: anything may have changed (truncation, or the feed was interrupted or restored). */
export type MemberChangeListener = (memberId: string | null) => void;

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

  /** A notification's payload: a member id, or '*' for every member. */
  announce(payload: string | undefined): void {
    const memberId = payload && payload !== '*' ? payload : null;
    for (const listener of this.#listeners) listener(memberId);
  }

  /** Going live or losing the feed both forget everything: changes may have been missed. */
  setLive(live: boolean): void {
    this.#live = live;
    for (const listener of this.#listeners) listener(null);
  }
}
