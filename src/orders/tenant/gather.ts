/**
 * @module
 * Companions for one shared call. Members of a group join a forming batch, which waits for the
 * runs it was told to await when it began (a run that comes later starts the next batch, so a
 * steady stream never holds one open), and closes when each of those has joined or left the way,
 * when it is full, or when its wait is up. See docs/design/order-batches.md.
 */

/** How a gather decides; every member of a batch gets its own answer from `send`. */
export interface GatherRules<M, A> {
  /** The most members one batch takes. */
  max: number;
  /** The member's run (`<source>:<order id>`), as `headed` names it. */
  runOf(member: M): string;
  /** The runs of the tenant on their way to this step now, members included. */
  headed(group: string): Set<string>;
  /** The runs a batch begun by `first` waits for: those on the way then, or fewer. */
  awaited(group: string, first: M): Set<string>;
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
  /** The runs on their way when the batch began: the only ones it waits for. */
  awaited: Set<string>;
  timer: ReturnType<typeof setTimeout> | null;
}

export class Gather<M, A> {
  readonly #forming = new Map<string, Forming<M, A>>();
  /** Runs whose shared call is on its way: they will not join before it answers. */
  readonly #inFlight = new Map<string, number>();

  constructor(private readonly rules: GatherRules<M, A>) {}

  /** Joins `group`'s forming batch; answers when its shared call has answered. */
  join(group: string, member: M): Promise<A> {
    const { promise, resolve, reject } = Promise.withResolvers<A>();
    let forming = this.#forming.get(group);
    if (!forming) {
      forming = { waiting: [], awaited: this.rules.awaited(group, member), timer: null };
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

  /** Closes a batch that waits for nobody any more (runs report: call after each report). */
  poke(group?: string): void {
    for (const [g, forming] of this.#forming) {
      if (group !== undefined && g !== group) continue;
      if (forming.waiting.length >= this.rules.max) {
        this.#close(g);
        continue;
      }
      const joined = new Set(forming.waiting.map((w) => this.rules.runOf(w.member)));
      const now = this.rules.headed(g);
      const missing = [...forming.awaited].some(
        (run) => now.has(run) && !joined.has(run) && !this.#inFlight.has(run),
      );
      if (!missing) this.#close(g);
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
    const runs = batch.map((w) => this.rules.runOf(w.member));
    for (const run of runs) this.#inFlight.set(run, (this.#inFlight.get(run) ?? 0) + 1);
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
        for (const run of runs) {
          const left = (this.#inFlight.get(run) ?? 1) - 1;
          if (left > 0) this.#inFlight.set(run, left);
          else this.#inFlight.delete(run);
        }
        this.poke(group);
      });
  }
}
