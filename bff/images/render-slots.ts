/**
 * How many image renders run at once (issue 60, decision 182): a render costs up to a few seconds
 * of CPU, and the machine has few cores. At most `perClient` renders in flight for one client
 * (more: refused, 429) and `total` for everyone, with up to `queue` more waiting their turn
 * (beyond: refused, 503). A cached image never takes a slot.
 */
export class RenderSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly perClientActive = new Map<string, number>();

  constructor(private readonly limits: { total: number; perClient: number; queue: number }) {}

  /**
   * Runs `render` in a slot (at once or after its turn), or says synchronously why not: the
   * check and the reservation happen in the same tick, so parallel requests cannot all pass.
   */
  tryRun<T>(client: string, render: () => Promise<T>): Promise<T> | 'client' | 'busy' {
    const mine = this.perClientActive.get(client) ?? 0;
    if (mine >= this.limits.perClient) return 'client';
    const queued = this.active >= this.limits.total;
    if (queued && this.waiting.length >= this.limits.queue) return 'busy';
    this.perClientActive.set(client, mine + 1);
    if (!queued) this.active += 1;
    const turn = queued ? new Promise<void>((resolve) => this.waiting.push(resolve)) : Promise.resolve();
    return turn.then(render).finally(() => {
      const next = this.waiting.shift();
      // The slot passes to the next in line as it is; otherwise it is freed.
      if (next) next();
      else this.active -= 1;
      const left = (this.perClientActive.get(client) ?? 1) - 1;
      if (left > 0) this.perClientActive.set(client, left);
      else this.perClientActive.delete(client);
    });
  }
}
