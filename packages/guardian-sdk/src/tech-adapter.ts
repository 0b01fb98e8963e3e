import {
  type ComponentDescriptor,
  getGuardianPolicyId,
  mergeProvisioningInfo,
  type ProvisioningLog,
  type ProvisioningRequest,
  ProvisioningRequestSchema,
  type ProvisioningStatus,
  parseProvisioningDescriptor,
  type SystemDescriptor,
  type TechAdapterError,
  type ValidationResult,
  type ValidationStatus,
  validateWith,
} from '@dcg/contract-schema';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type GuardedContract, type GuardIssue, guardedContracts } from './guarded-contracts';

/** What a guardian's provision or unprovision handler receives. */
export interface GuardianProvisioning {
  operation: 'provision' | 'unprovision';
  /** The passive policy id (always set for provision; as stored for unprovision). */
  policyId: string | undefined;
  /**
   * The environment (`dataProduct.environment` of the descriptor: governance-api's coordinator
   * sets it to the plan's), when present and not blank.
   */
  environment: string | undefined;
  system: SystemDescriptor;
  guardian: ComponentDescriptor;
  /** The contracts the guardian guards, parsed (for unprovision: those that parse). */
  contracts: GuardedContract[];
  /** Every `guards[].dataContractId`, parsed or not. */
  guardedContractIds: string[];
  /**
   * The rules of the guarded contracts that the built-in checks cannot run (code
   * `unchecked_rule`), with paths in the descriptor. Validate refuses them unless
   * `uncheckedRules: 'report'`; provision logs them as WARN; results report them as not checked.
   */
  warnings?: GuardIssue[] | undefined;
  removeData: boolean;
  request: ProvisioningRequest;
}

/** What a handler may add to the answer; the input `info` is always kept. */
export interface GuardianProvisioningAnswer {
  publicInfo?: Record<string, unknown>;
  privateInfo?: Record<string, unknown>;
  result?: string;
  logs?: Array<Pick<ProvisioningLog, 'level' | 'message'>>;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing must type-check
type Nothing = void;

/** A provision or unprovision handler; it may return nothing (the input `info` is answered). */
export type GuardianProvisioningHandler = (
  provisioning: GuardianProvisioning,
) => GuardianProvisioningAnswer | Nothing | Promise<GuardianProvisioningAnswer | Nothing>;
type Handler = GuardianProvisioningHandler;

/** Options of {@link createGuardianAdapter}. */
export interface GuardianAdapterOptions {
  onProvision: Handler;
  onUnprovision?: Handler;
  /** Extra validation: the problems it returns make `/v1/validate` answer `valid: false`. */
  validate?: (provisioning: GuardianProvisioning) => string[] | Promise<string[]>;
  /**
   * A contract rule the built-in checks cannot run (an ODCS `custom` or `text` rule, an unknown
   * metric, an SLA such as `retention`): `'refuse'` (default) makes `/v1/validate` answer
   * `valid: false` naming each rule and why; `'report'` accepts the contract, and each result
   * reports the rule as a requirement not checked, with the reason.
   */
  uncheckedRules?: 'refuse' | 'report';
  /** A handler still running after this long is answered 202 with a token (default 5000 ms). */
  syncTimeoutMs?: number;
  /** Larger request bodies get 413 (default 5 MiB). */
  maxBodyBytes?: number;
  /** Tokens remembered for the status endpoints; the oldest finished are forgotten first (default 1000). */
  maxTasks?: number;
  /** Base path of the API (default none; Witboost often uses `/datamesh.specificprovisioner`). */
  basePath?: string;
}

/** The tech adapter: a Hono app, and its `fetch` for any runtime. */
export interface GuardianAdapter {
  app: Hono;
  fetch: (request: Request) => Response | Promise<Response>;
}

type Task =
  | { kind: 'provisioning'; status: ProvisioningStatus }
  | { kind: 'validation'; status: ValidationStatus };

class RequestProblem extends Error {
  constructor(
    readonly body: TechAdapterError,
    readonly status: 400 | 413 = 400,
  ) {
    super(body.userMessage ?? body.errors.join('; '));
  }
}

const MAX_ERRORS = 100;

function requestError(all: string[], userMessage: string, field?: string): RequestProblem {
  // Bounded answer: the first problems, and how many more there are.
  const errors =
    all.length > MAX_ERRORS
      ? [...all.slice(0, MAX_ERRORS), `… and ${all.length - MAX_ERRORS} more problems`]
      : all;
  return new RequestProblem({
    errors,
    userMessage,
    ...(field === undefined ? {} : { inputErrorField: field }),
    moreInfo: { problems: errors, solutions: [] },
  });
}

function dotted(path: ReadonlyArray<string | number>): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
}

function log(level: ProvisioningLog['level'], message: string): ProvisioningLog {
  return { timestamp: new Date().toISOString(), level, message };
}

async function readRequest(body: unknown): Promise<ProvisioningRequest> {
  const parsed = validateWith(ProvisioningRequestSchema, body);
  if (!parsed.success) {
    throw requestError(
      parsed.issues.map((i) => `${i.path}: ${i.message}`),
      'The provisioning request is malformed',
      parsed.issues[0]?.path.replace(/^\$\.?/, ''),
    );
  }
  return parsed.data;
}

function toProvisioning(
  request: ProvisioningRequest,
  operation: 'provision' | 'unprovision',
  strict: boolean,
): GuardianProvisioning {
  if (request.descriptorKind !== 'COMPONENT_DESCRIPTOR') {
    throw requestError(
      [`descriptorKind is ${request.descriptorKind}; a guardian adapter provisions one component`],
      'Expected a COMPONENT_DESCRIPTOR',
      'descriptorKind',
    );
  }
  const parsed = parseProvisioningDescriptor(request);
  if (!parsed.success) {
    throw requestError(
      parsed.issues.map((i) => `${i.path}: ${i.message}`),
      'The descriptor is malformed',
      parsed.issues[0]?.path.replace(/^\$\.?/, ''),
    );
  }
  if (parsed.data.kind !== 'COMPONENT_DESCRIPTOR') throw new Error('unreachable');
  const { system, component } = parsed.data;
  const ids = (component.__dataContractGuardianSpec?.guards ?? []).map((g) => g.dataContractId);
  if (component.__dataContractGuardianSpec === undefined) {
    throw requestError(
      [`$.descriptor.componentIdToProvision: "${component.id}" has no __dataContractGuardianSpec`],
      'The component to provision is not a guardian',
      'descriptor.componentIdToProvision',
    );
  }
  const found = guardedContracts(system, component);
  let contracts: GuardedContract[] = [];
  let warnings: GuardIssue[] = [];
  if (found.success) {
    contracts = found.data;
    warnings = found.warnings;
  } else if (strict) {
    throw requestError(
      found.issues.map(
        (i: GuardIssue) => `$.descriptor.dataProduct.${dotted(i.path)}: ${i.message}`,
      ),
      'The guardian or the data contracts it guards are invalid',
      `descriptor.dataProduct.${dotted(found.issues[0]?.path ?? [])}`,
    );
  }
  return {
    operation,
    policyId: getGuardianPolicyId(component),
    // The coordinator sends the plan's environment here (`dataProduct.environment`); blank is none.
    environment:
      typeof system.environment === 'string' && system.environment.trim() !== ''
        ? system.environment
        : undefined,
    system,
    guardian: component,
    contracts,
    guardedContractIds: ids,
    warnings,
    removeData: request.removeData,
    request,
  };
}

const MISSING_POLICY =
  'missing passive policy: info.privateInfo.__dataContractGuardian.policyId is absent. The provisioning coordinator sets it when the infrastructure template is registered as a guardian template with a policy for the system resource type';

async function provisioningStatus(
  provisioning: GuardianProvisioning,
  handler: Handler | undefined,
): Promise<ProvisioningStatus> {
  const { operation, guardian } = provisioning;
  if (operation === 'provision' && provisioning.policyId === undefined) {
    return {
      status: 'FAILED',
      result: MISSING_POLICY,
      info: null,
      logs: [log('ERROR', MISSING_POLICY)],
    };
  }
  let answer: GuardianProvisioningAnswer | undefined;
  try {
    answer = handler ? ((await handler(provisioning)) ?? undefined) : undefined;
  } catch (error) {
    const message = `${operation} of ${guardian.id} failed: ${(error as Error)?.message ?? String(error)}`;
    return { status: 'FAILED', result: message, info: null, logs: [log('ERROR', message)] };
  }
  const logs = [
    ...(operation === 'provision' ? (provisioning.warnings ?? []) : []).map((w) =>
      log(
        w.code === 'not_applicable' ? 'INFO' : 'WARNING',
        `$.descriptor.dataProduct.${dotted(w.path)}: ${w.message}`,
      ),
    ),
    ...(answer?.logs ?? []).map((l) => log(l.level, l.message)),
    log(
      'INFO',
      `${operation} of ${guardian.id}: ${provisioning.contracts.length} data contract(s) guarded`,
    ),
  ];
  const result = answer?.result ?? `${operation} of ${guardian.id} completed`;
  if (operation === 'unprovision') return { status: 'COMPLETED', result, info: null, logs };
  // The input `info` (with the passive policy id) merged with what the handler adds, whatever it returns.
  const merged =
    mergeProvisioningInfo(guardian.info, {
      publicInfo: answer?.publicInfo ?? {},
      privateInfo: answer?.privateInfo ?? {},
    }) ?? {};
  const info = {
    ...merged,
    publicInfo: (merged.publicInfo as Record<string, unknown> | undefined) ?? {},
    privateInfo: (merged.privateInfo as Record<string, unknown> | undefined) ?? {},
  };
  return { status: 'COMPLETED', result, info, logs };
}

async function validationResult(
  provisioning: () => GuardianProvisioning,
  options: GuardianAdapterOptions,
): Promise<ValidationResult> {
  let errors: string[] = [];
  try {
    const p = provisioning();
    // Refused by default: a guardian never reports as compliant a rule it did not check.
    if ((options.uncheckedRules ?? 'refuse') === 'refuse') {
      errors = (p.warnings ?? [])
        .filter((w) => w.code === 'unchecked_rule')
        .map(
          (w) =>
            `$.descriptor.dataProduct.${dotted(w.path)}: ${w.message} (refused: this guardian accepts only rules it checks; with uncheckedRules: 'report' it reports them as not checked)`,
        );
    }
    if (options.validate) errors = [...errors, ...(await options.validate(p))];
  } catch (error) {
    if (error instanceof RequestProblem) errors = error.body.errors;
    else errors = [`validation failed: ${(error as Error)?.message ?? String(error)}`];
  }
  return errors.length === 0 ? { valid: true } : { valid: false, error: { errors } };
}

/**
 * A guardian's tech adapter (API v2.2.0): `POST /v1/provision`, `/v1/unprovision`,
 * `/v1/validate`, `/v2/validate`, their `…/{token}/status` endpoints, and answers for
 * `/v1/updateacl` and `/v1/reverse-provisioning`, which a guardian does not support. It parses the
 * YAML descriptor, finds the guardian and the contracts it guards (A5), requires the passive policy
 * id, and answers the input `info` merged with whatever the handler adds.
 *
 * @example
 * const adapter = createGuardianAdapter({
 *   onProvision: ({ policyId, contracts }) => {
 *     monitor(policyId, contracts);
 *     return { publicInfo: { monitored: { type: 'string', label: 'Contracts', value: String(contracts.length) } } };
 *   },
 * });
 * serve({ fetch: adapter.fetch, port: 8093 });
 */
export function createGuardianAdapter(options: GuardianAdapterOptions): GuardianAdapter {
  const syncTimeoutMs = options.syncTimeoutMs ?? 5000;
  const maxTasks = options.maxTasks ?? 1000;
  const tasks = new Map<string, Task>();
  const remember = (task: Task): string => {
    if (tasks.size >= maxTasks) {
      const finished = [...tasks].find(([, t]) => t.status.status !== 'RUNNING');
      tasks.delete(finished?.[0] ?? (tasks.keys().next().value as string));
    }
    const token = globalThis.crypto.randomUUID();
    tasks.set(token, task);
    return token;
  };
  // The status of a remembered task; a token it does not know (or of the other kind) is a 400.
  const statusOf = (token: string, kind: Task['kind']) => {
    const task = tasks.get(token);
    if (task?.kind !== kind) {
      throw requestError([`unknown token "${token.slice(0, 100)}"`], 'Unknown token');
    }
    return task.status;
  };

  const app = new Hono();
  const api = options.basePath ? app.basePath(options.basePath) : app;
  api.use(
    '*',
    bodyLimit({
      maxSize: options.maxBodyBytes ?? 5 * 1024 * 1024,
      onError: (c) =>
        c.json(
          {
            errors: ['the request body is too large'],
            userMessage: `The request body exceeds ${options.maxBodyBytes ?? 5 * 1024 * 1024} bytes`,
          },
          413,
        ),
    }),
  );
  app.onError((error, c) => {
    if (error instanceof RequestProblem) return c.json(error.body, error.status);
    return c.json(
      { error: (error as Error).message, userMessage: 'The guardian adapter failed' },
      500,
    );
  });
  const body = async (c: { req: { json: () => Promise<unknown> } }) => {
    try {
      return await c.req.json();
    } catch {
      throw requestError(['the body is not valid JSON'], 'The request body must be JSON');
    }
  };

  for (const operation of ['provision', 'unprovision'] as const) {
    const handler = operation === 'provision' ? options.onProvision : options.onUnprovision;
    api.post(`/v1/${operation}`, async (c) => {
      const request = await readRequest(await body(c));
      const provisioning = toProvisioning(request, operation, operation === 'provision');
      const running = provisioningStatus(provisioning, handler);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), syncTimeoutMs);
      });
      const status = await Promise.race([running, late]);
      clearTimeout(timer);
      if (status !== undefined) return c.json(status, 200);
      const task: Task = {
        kind: 'provisioning',
        status: {
          status: 'RUNNING',
          result: `${operation} of ${provisioning.guardian.id} running`,
        },
      };
      const token = remember(task);
      void running.then((done) => {
        task.status = done;
      });
      return c.json(token, 202);
    });
    api.get(`/v1/${operation}/:token/status`, (c) =>
      c.json(statusOf(c.req.param('token'), 'provisioning'), 200),
    );
  }

  api.post('/v1/validate', async (c) => {
    const request = await readRequest(await body(c));
    return c.json(
      await validationResult(() => toProvisioning(request, 'provision', true), options),
      200,
    );
  });
  api.post('/v2/validate', async (c) => {
    const request = await readRequest(await body(c));
    const task: Task = { kind: 'validation', status: { status: 'RUNNING' } };
    const token = remember(task);
    void validationResult(() => toProvisioning(request, 'provision', true), options).then(
      (result) => {
        task.status = { status: 'COMPLETED', info: { publicInfo: result } };
      },
    );
    return c.json(token, 202);
  });
  api.get('/v2/validate/:token/status', (c) =>
    c.json(statusOf(c.req.param('token'), 'validation'), 200),
  );
  api.post('/v1/updateacl', () => {
    throw requestError(
      ['a data contract guardian grants no access: updateacl is not supported'],
      'This guardian does not support access control',
    );
  });
  const reverse = {
    status: 'FAILED',
    updates: {},
    logs: [log('ERROR', 'a data contract guardian does not support reverse provisioning')],
  };
  api.post('/v1/reverse-provisioning', (c) =>
    c.json({ ...reverse, logs: [log('ERROR', reverse.logs[0]!.message)] }, 200),
  );
  api.get('/v1/reverse-provisioning/:token/status', () => {
    throw requestError(['reverse provisioning is not supported: no token exists'], 'Unknown token');
  });
  app.notFound((c) =>
    c.json(
      { errors: [`no endpoint ${c.req.method} ${c.req.path}`], userMessage: 'Not found' },
      404,
    ),
  );
  return { app, fetch: (request) => app.fetch(request) };
}
