import { Hono } from 'hono';
import { ContractRegistry } from './contract-registry';
import { GovernanceClient, type GovernanceClientOptions } from './governance-client';
import {
  type Check,
  type GuardianHooks,
  type ResultSink,
  type RunningGuardian,
  type RunSummary,
  runGuardian,
} from './run-guardian';
import type { Schedule } from './schedule';
import {
  createGuardianAdapter,
  type GuardianAdapterOptions,
  type GuardianProvisioning,
  type GuardianProvisioningAnswer,
} from './tech-adapter';

/** Options of {@link createGuardian}. */
export interface CreateGuardianOptions {
  /** What is checked on every contract (e.g. `postgresContractCheck({ pool })` and your own). */
  checks: ReadonlyArray<Check>;
  /** Where results go: the governance API (`{ baseUrl, apiKey }`), or any {@link ResultSink}. */
  governance: GovernanceClientOptions | ResultSink;
  /**
   * The contracts the guardian was provisioned with. Default: kept in memory (lost on restart);
   * `startGuardian` of `@dcg/guardian-sdk/node` defaults to a file instead.
   */
  registry?: ContractRegistry;
  /** The environment results go to when the descriptor names none (default `production`; ignored when `registry` is given). */
  environment?: string;
  /** Default schedule of a contract whose guard has no `monitoringResultScheduling` (default every 5 minutes). */
  schedule?: Schedule;
  /** See {@link runGuardian}. */
  jitterMs?: number;
  /** Contracts checked at once (default 4). */
  concurrency?: number;
  /** See {@link runGuardian}. */
  tickMs?: number;
  hooks?: GuardianHooks;
  /**
   * Whether what the checks need answers (e.g. `() => pool.query('SELECT 1')`): `GET /ready`
   * answers 503 when it throws, returns `false` or takes longer than 5 s.
   */
  ready?: () => unknown;
  /** Adds to the provisioning answer (shown in the marketplace); by default the number of contracts. */
  describe?: (provisioning: GuardianProvisioning) => GuardianProvisioningAnswer | undefined;
  /** Tech adapter options. */
  adapter?: Omit<GuardianAdapterOptions, 'onProvision' | 'onUnprovision'>;
}

/** A guardian: its HTTP app (tech adapter, `/health`, `/ready`), its registry and its scheduler. */
export interface Guardian {
  /** The tech adapter API v2.2.0 plus `GET /health` and `GET /ready`. */
  app: Hono;
  fetch: (request: Request) => Response | Promise<Response>;
  registry: ContractRegistry;
  /** The scheduler (lower level; `start`, `runOnce` and `stop` below are the same). */
  scheduler: RunningGuardian;
  /** Starts checking on schedule. */
  start(): void;
  /** Checks every contract once (the `--once` mode). */
  runOnce(): Promise<RunSummary>;
  /** Stops: `/ready` answers 503, scheduling stops, a run in flight may finish within `deadlineMs`. */
  stop(deadlineMs?: number): Promise<void>;
}

const READY_TIMEOUT_MS = 5000;

function isSink(value: CreateGuardianOptions['governance']): value is ResultSink {
  return typeof (value as ResultSink).submit === 'function';
}

/**
 * The one way to build a guardian: a tech adapter that remembers the contracts it is provisioned
 * with (per guardian, contract and environment), a scheduler that checks them and submits the
 * results, and `/health` and `/ready` probes, in one Hono app. Runtime-neutral; on Node,
 * `startGuardian` of `@dcg/guardian-sdk/node` serves it, keeps the registry in a file and handles
 * `--once` and signals.
 *
 * @example
 * const guardian = createGuardian({ checks: [myCheck], governance: { baseUrl, apiKey } });
 * guardian.start();
 * export default { fetch: guardian.fetch };
 */
export function createGuardian(options: CreateGuardianOptions): Guardian {
  const registry =
    options.registry ?? new ContractRegistry({ defaultEnvironment: options.environment });
  const client = isSink(options.governance)
    ? options.governance
    : new GovernanceClient(options.governance);
  const log = options.hooks?.log;
  const scheduler = runGuardian({
    contracts: () => registry.list(),
    checks: options.checks,
    client,
    scheduled: false,
    ...(options.schedule ? { schedule: options.schedule } : {}),
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.tickMs === undefined ? {} : { tickMs: options.tickMs }),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  const adapter = createGuardianAdapter({
    ...options.adapter,
    onProvision: (provisioning) => {
      registry.provisioned(provisioning);
      log?.('info', 'provisioned', {
        guardian: provisioning.guardian.id,
        environment: registry.environmentOf(provisioning),
        policyId: provisioning.policyId,
        contracts: provisioning.contracts.map((c) => c.resourceId),
      });
      const extra = options.describe?.(provisioning);
      return {
        ...extra,
        publicInfo: {
          monitoredContracts: {
            type: 'string',
            label: 'Monitored contracts',
            value: String(provisioning.contracts.length),
          },
          ...extra?.publicInfo,
        },
      };
    },
    onUnprovision: (provisioning) => {
      registry.unprovisioned(provisioning);
      log?.('info', 'unprovisioned', {
        guardian: provisioning.guardian.id,
        environment: registry.environmentOf(provisioning),
      });
    },
  });

  let stopping = false;
  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    const contracts = registry.list().length;
    if (stopping) return c.json({ status: 'stopping', ready: false, contracts }, 503);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const answer = await Promise.race([
        Promise.resolve(options.ready?.()),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)),
            READY_TIMEOUT_MS,
          );
        }),
      ]);
      if (answer === false) throw new Error('a dependency is not ready');
      return c.json({ status: 'ready', ready: true, contracts }, 200);
    } catch (error) {
      const reason = (error as Error)?.message ?? String(error);
      return c.json({ status: 'not ready', ready: false, contracts, error: reason }, 503);
    } finally {
      clearTimeout(timer);
    }
  });
  app.route('/', adapter.app);
  app.notFound((c) =>
    c.json(
      { errors: [`no endpoint ${c.req.method} ${c.req.path}`], userMessage: 'Not found' },
      404,
    ),
  );

  return {
    app,
    fetch: (request) => app.fetch(request),
    registry,
    scheduler,
    start: () => scheduler.start(),
    runOnce: () => scheduler.runOnce(),
    async stop(deadlineMs) {
      stopping = true;
      await scheduler.stop(deadlineMs);
    },
  };
}
