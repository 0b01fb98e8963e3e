import { describe, expect, it } from 'vitest';
import { failureThrottle } from './failure-throttle';

describe('failureThrottle: free failures, then doubling locks, forgotten after a quiet spell', () => {
  it('locks after the free failures for 1, 2, 4 … s, capped at maxSeconds', () => {
    const throttle = failureThrottle({ freeFailures: 2, baseSeconds: 1, maxSeconds: 8 });
    const keys = ['account:ada'];
    let now = 0;
    expect([throttle.failed(keys, now), throttle.failed(keys, now)]).toEqual([0, 0]);
    expect(throttle.wait(keys, now)).toBe(0);
    const locks: number[] = [];
    for (let i = 0; i < 6; i++) {
      const seconds = throttle.failed(keys, now);
      locks.push(seconds);
      expect(throttle.wait(keys, now)).toBe(seconds);
      now += seconds * 1000;
      expect(throttle.wait(keys, now)).toBe(0);
    }
    expect(locks).toEqual([1, 2, 4, 8, 8, 8]);
  });

  it('the worst of several keys decides; success clears only the keys named', () => {
    const throttle = failureThrottle({ freeFailures: 1 });
    throttle.failed(['address:a'], 0);
    throttle.failed(['address:a'], 0);
    expect(throttle.wait(['account:x', 'address:a'], 0)).toBe(1);
    throttle.succeeded(['account:x']);
    expect(throttle.wait(['account:x', 'address:a'], 0)).toBe(1);
    throttle.succeeded(['address:a']);
    expect(throttle.wait(['address:a'], 0)).toBe(0);
  });

  it('forgets a key after maxSeconds without failures, and the oldest key when full', () => {
    const throttle = failureThrottle({ freeFailures: 0, maxSeconds: 10, maxKeys: 2 });
    throttle.failed(['a'], 0);
    expect(throttle.failed(['a'], 1_000)).toBe(2);
    // Quiet for longer than maxSeconds: counting starts over.
    expect(throttle.failed(['a'], 20_000)).toBe(1);
    throttle.failed(['b'], 20_000);
    throttle.failed(['c'], 20_000);
    expect(throttle.wait(['a'], 20_000)).toBe(0);
    expect(throttle.wait(['c'], 20_000)).toBe(1);
  });
});
