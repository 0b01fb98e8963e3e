/**
 * A count of what started in this turn of the event loop. The turn's check phase
 * (`setImmediate`, after the turn's I/O) sets it back to 0 and calls `onNextTurn`, which may let
 * waiting work go on (counting it for the new turn). Admission counts the requests it starts with
 * one, {@link TurnBudget} the pieces of work it lets resume.
 *
 * @example
 * const starts = new TurnCounter(() => admitWaiters());
 * starts.add(); // one more this turn; the next check phase resets and calls admitWaiters
 */
export class TurnCounter {
  #count = 0;
  #scheduled = false;

  constructor(private readonly onNextTurn: () => void) {}

  /** What started since the last reset. */
  get count(): number {
    return this.#count;
  }

  /** Counts one more start in this turn. */
  add(): void {
    this.#count += 1;
    this.nextTurn();
  }

  /** Asks for the reset (and `onNextTurn`) in the coming check phase, once however often asked. */
  nextTurn(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#count = 0;
      this.onNextTurn();
    });
  }
}
