/**
 * @module
 * Companions for one shared call. Members of a group join a forming batch, which closes when no
 * other run is headed for the step, when it is full, or when its wait is up; a closed batch is
 * handed to `send` and a later member starts the next. See docs/design/order-batches.md.
 */

/** How a gather decides; every member of a batch gets its own answer from `send`. */
export interface GatherRules<M, A> {
  /** The most members one batch takes. */
  max: number;
  /** How many runs of the tenant are headed for this step, members and calls in flight included. */
  headed(group: string): number;
  /** How long a batch's first member may wait for companions, ms (asked once per batch). */
  waitMs(first: M): Promise<number>;
  /** Makes the shared call; an answer per member, in the members' order. */
  send(group: string, members: M[]): Promise<A[]>;
}

interface Waiting<M, A> {
  member: M;
  resolve: (a: A) => void;
  reject: (e: unknown) => void;
}

interface Forming<M, A> {
  waiting: Waiting<M, A>[];
  timer: ReturnType<typeof setTimeout> | null;
}

export class Gather<M, A> {
  readonly #forming = new Map<string, Forming<M, A>>();
  /** Members whose call is on its way, per group: not headed any more, not joinable either. */
  readonly #inFlight = new Map<string, number>();

  constructor(private readonly rules: GatherRules<M, A>) {}

  /** Joins `group`'s forming batch; answers when its shared call has answered. */
  join(group: string, member: M): Promise<A> {
    const { promise, resolve, reject } = Promise.withResolvers<A>();
    let forming = this.#forming.get(group);
    if (!forming) {
      forming = { waiting: [], timer: null };
      this.#forming.set(group, forming);
      const started = forming;
      void this.rules.waitMs(member).then(
        (ms) => {
          if (this.#forming.get(group) !== started) return;
          started.timer = setTimeout(() => this.#close(group), ms);
        },
        () => this.#close(group),
      );
    }
    forming.waiting.push({ member, resolve, reject });
    this.poke(group);
    return promise;
  }

  /** Closes `group`'s batch if nobody else is on the way (runs report: call after each report). */
  poke(group?: string): void {
    for (const [g, forming] of this.#forming) {
      if (group !== undefined && g !== group) continue;
      const joined = forming.waiting.length + (this.#inFlight.get(g) ?? 0);
      if (forming.waiting.length >= this.rules.max || this.rules.headed(g) <= joined)
        this.#close(g);
    }
  }

  #close(group: string): void {
    const forming = this.#forming.get(group);
    if (!forming) return;
    this.#forming.delete(group);
    if (forming.timer) clearTimeout(forming.timer);
    const batch = forming.waiting.splice(0, this.rules.max);
    // Past the maximum, the rest begin the next batch at once.
    for (const w of forming.waiting) void this.join(group, w.member).then(w.resolve, w.reject);
    this.#inFlight.set(group, (this.#inFlight.get(group) ?? 0) + batch.length);
    void this.rules
      .send(
        group,
        batch.map((w) => w.member),
      )
      .then(
        (answers) => batch.forEach((w, i) => w.resolve(answers[i] as A)),
        (e: unknown) => batch.forEach((w) => w.reject(e)),
      )
      .finally(() => {
        const left = (this.#inFlight.get(group) ?? 0) - batch.length;
        if (left > 0) this.#inFlight.set(group, left);
        else this.#inFlight.delete(group);
        this.poke(group);
      });
  }
}
