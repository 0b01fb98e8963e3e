import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { TurnBudget } from './turn-budget';

describe('TurnBudget', () => {
  it('lets at most perTurn pieces go on per turn of the loop, first come first served', async () => {
    const budget = new TurnBudget(2);
    const went: number[] = [];
    const pieces = Array.from({ length: 5 }, (_, i) => {
      const turn = budget.take();
      if (turn === undefined) {
        went.push(i);
        return Promise.resolve();
      }
      return turn.then(() => went.push(i));
    });
    // This turn: the first two at once, without waiting.
    expect(went).toEqual([0, 1]);
    expect(budget.waiting).toBe(3);
    await nextTurn();
    expect(went).toEqual([0, 1, 2, 3]);
    await nextTurn();
    expect(went).toEqual([0, 1, 2, 3, 4]);
    await Promise.all(pieces);
    expect(budget.waiting).toBe(0);
  });

  it('lets other callbacks of the loop run between two batches', async () => {
    const budget = new TurnBudget(1);
    const order: string[] = [];
    expect(budget.take()).toBeUndefined();
    const second = budget.take()!.then(() => order.push('second piece'));
    const third = budget.take()!.then(() => order.push('third piece'));
    // Another callback that became ready meanwhile (as a socket's does) runs between the two.
    setImmediate(() => order.push('other callback'));
    await Promise.all([second, third]);
    expect(order).toEqual(['second piece', 'other callback', 'third piece']);
  });

  it('gives every turn its full budget again once nothing waits', async () => {
    const budget = new TurnBudget(1);
    expect(budget.take()).toBeUndefined();
    expect(budget.take()).toBeInstanceOf(Promise);
    await nextTurn();
    await nextTurn();
    expect(budget.take()).toBeUndefined();
    expect(() => new TurnBudget(0)).toThrow(RangeError);
  });
});
