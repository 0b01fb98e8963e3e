import { TurnCounter } from './turn-counter';

/**
 * How many pieces of work go on per turn of the event loop; the others wait for a later turn, in
 * its check phase (`setImmediate`), so that the loop reads its sockets between two batches and
 * a probe (`/health`, answered as soon as it is read) waits behind one batch at most instead of
 * behind all the work that became ready at once. Admission control bounds how many requests
 * start per turn; this bounds the work that resumes, such as the answers of a backend that
 * arrive together (each then parsed, checked and answered on, all CPU).
 *
 * @example
 * const budget = new TurnBudget(4);
 * const response = await fetch(url);
 * await budget.take(); // at most 4 answers go on per turn of the loop
 */
export class TurnBudget {
  readonly #perTurn: number;
  readonly #waiting: (() => void)[] = [];
  /** Pieces that went on this turn; the next turn lets the waiting go on. */
  readonly #used = new TurnCounter(() => {
    while (this.#waiting.length > 0 && this.#used.count < this.#perTurn) {
      // Those let go here count for this turn: the next turn resets the count (and goes on).
      this.#used.add();
      this.#waiting.shift()!();
    }
  });

  constructor(perTurn: number) {
    if (!Number.isInteger(perTurn) || perTurn < 1) throw new RangeError('perTurn must be >= 1');
    this.#perTurn = perTurn;
  }

  /** Pieces waiting for a later turn now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * A piece of work may go on: `undefined` when this turn has room left (go on at once, no
   * promise to wait for), else a promise of a later turn. First come, first served.
   */
  take(): Promise<void> | undefined {
    if (this.#waiting.length === 0 && this.#used.count < this.#perTurn) {
      this.#used.add();
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#used.nextTurn();
    });
  }
}
