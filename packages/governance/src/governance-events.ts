import type { InstanceRecord } from './repositories';

/**
 * Events of the governance domain. `system.deployed` / `system.undeployed` fire after the
 * marketplace instance was stored or removed (embeddings of the MCP part rebuild on them).
 *
 * @example
 * events.on('system.deployed', (e) => console.log(e.systemId, e.environment));
 */
export interface GovernanceEventMap {
  'system.deployed': {
    systemId: string;
    environment: string;
    planId: string;
    instance: InstanceRecord;
  };
  'system.undeployed': { systemId: string; environment: string; planId: string };
}

/** Name of a governance event. */
export type GovernanceEventName = keyof GovernanceEventMap;

type Listener<K extends GovernanceEventName> = (
  event: GovernanceEventMap[K],
) => void | Promise<void>;

/**
 * A small typed event emitter (runtime-neutral: no `node:events`). A failing listener never breaks
 * provisioning: its error goes to `onListenerError`.
 *
 * @example
 * const events = new GovernanceEvents();
 * const off = events.on('system.undeployed', ({ systemId }) => forget(systemId));
 * off();
 */
export class GovernanceEvents {
  private readonly listeners = new Map<GovernanceEventName, Set<Listener<GovernanceEventName>>>();

  constructor(
    private readonly onListenerError: (error: unknown, event: GovernanceEventName) => void = () =>
      undefined,
  ) {}

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends GovernanceEventName>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as Listener<GovernanceEventName>);
    return () => set.delete(listener as Listener<GovernanceEventName>);
  }

  /** Calls every listener; resolves when async listeners settled. */
  async emit<K extends GovernanceEventName>(name: K, event: GovernanceEventMap[K]): Promise<void> {
    const set = this.listeners.get(name);
    if (!set) return;
    await Promise.all(
      [...set].map(async (listener) => {
        try {
          await listener(event);
        } catch (error) {
          this.onListenerError(error, name);
        }
      }),
    );
  }
}
