import { describe, expect, it } from 'vitest';
import { QueryAdmission } from './query-admission';

type Entered = Awaited<ReturnType<QueryAdmission['enter']>>;

function released(entered: Entered): () => void {
  if ('reason' in entered) throw new Error(`refused: ${entered.reason}`);
  return entered.release;
}

describe('QueryAdmission', () => {
  const far = () => Date.now() + 60_000;

  it('admits up to maxConcurrent, queues up to maxQueued in arrival order, refuses the rest', async () => {
    const admission = new QueryAdmission({ maxConcurrent: 2, maxQueued: 2 });
    const a = released(await admission.enter(far()));
    const b = released(await admission.enter(far()));
    const order: string[] = [];
    const c = admission.enter(far()).then((e) => {
      order.push('c');
      return e;
    });
    const d = admission.enter(far()).then((e) => {
      order.push('d');
      return e;
    });
    expect(admission.load).toEqual({ running: 2, queued: 2 });
    const refused = await admission.enter(Date.now() + 5_000);
    expect(refused).toMatchObject({ reason: 'queue-full' });
    // Retry-After: seconds until the earliest running query must have ended (60 s here).
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(55);
    a();
    a(); // releasing twice frees one slot only
    const cRelease = released(await c);
    expect(order).toEqual(['c']);
    expect(admission.load).toEqual({ running: 2, queued: 1 });
    b();
    released(await d)();
    cRelease();
    expect(order).toEqual(['c', 'd']);
    expect(admission.load).toEqual({ running: 0, queued: 0 });
  });

  it('a waiting query leaves the queue at its deadline or when its client goes away', async () => {
    const admission = new QueryAdmission({ maxConcurrent: 1, maxQueued: 5 });
    released(await admission.enter(far()));
    const late = admission.enter(Date.now() + 20);
    const controller = new AbortController();
    const gone = admission.enter(far(), controller.signal);
    controller.abort();
    expect(await gone).toEqual({ reason: 'aborted' });
    expect(await late).toEqual({ reason: 'deadline' });
    expect(admission.load).toEqual({ running: 1, queued: 0 });
    expect(await admission.enter(far(), AbortSignal.abort())).toEqual({ reason: 'aborted' });
  });
});
