import { ContractSchemaError } from './contract-schema-error';
import type { ComponentDescriptor } from './descriptor';
import { parseDocumentText } from './document-text';
import { findComponent } from './find-component';
import {
  isJsonSchemaName,
  JSON_SCHEMA_NAMES,
  toDraft07JsonSchema,
  zodSchemaFor,
} from './json-schemas';
import { selectContractTargets } from './target-selection';
import {
  type Validation,
  type ValidationIssue,
  validateDescriptor,
  validateDetails,
  validateSubmission,
  validateTemplate,
  validateWith,
  validationIssue,
} from './validation';

/** What the CLI needs from its environment; tests pass an in-memory one. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
}

/**
 * Exit codes of `dcg-contract`.
 *
 * @example
 * if ((await run(argv, io)) === EXIT.invalid) console.error('fix the document');
 */
export const EXIT = { valid: 0, invalid: 1, usage: 2 } as const;

const VALIDATORS = {
  details: validateDetails,
  submission: validateSubmission,
  template: validateTemplate,
  descriptor: validateDescriptor,
} as const satisfies Record<string, (value: unknown) => Validation<unknown>>;
type Kind = keyof typeof VALIDATORS;

const USAGE = `Usage:
  dcg-contract validate --kind details|submission|template|descriptor|SCHEMA [--format text|json] FILE...
  dcg-contract targets [--guardian URN] [--format text|json] DESCRIPTOR
  dcg-contract schema NAME
  dcg-contract help

FILE is JSON or YAML; "-" reads standard input.
Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable file.
Schemas: ${JSON_SCHEMA_NAMES.join(', ')}`;

class UsageError extends Error {}

interface Options {
  kind?: string;
  format: 'text' | 'json';
  guardian?: string;
  positional: string[];
}

function parseOptions(args: ReadonlyArray<string>, allowed: ReadonlyArray<string>): Options {
  const options: Options = { format: 'text', positional: [] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '-' || !arg.startsWith('-')) {
      options.positional.push(arg);
      continue;
    }
    if (arg === '--') {
      options.positional.push(...args.slice(index + 1));
      break;
    }
    const [flag, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    const name = flag.replace(/^--/, '');
    if (!allowed.includes(name)) throw new UsageError(`unknown option ${flag}`);
    const value = inline ?? args[++index];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (name === 'format') {
      if (value !== 'text' && value !== 'json') {
        throw new UsageError(`--format must be text or json, not "${value}"`);
      }
      options.format = value;
    } else if (name === 'kind') options.kind = value;
    else if (name === 'guardian') options.guardian = value;
  }
  return options;
}

type Loaded = { ok: true; value: unknown } | { ok: false; unreadable: boolean; message: string };

async function load(file: string, io: CliIo): Promise<Loaded> {
  let text: string;
  try {
    text = file === '-' ? await io.readStdin() : await io.readFile(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : error instanceof Error
              ? error.message
              : String(error);
    return { ok: false, unreadable: true, message: `cannot read ${file}: ${reason}` };
  }
  try {
    return { ok: true, value: parseDocumentText(text, file === '-' ? 'stdin' : file) };
  } catch (error) {
    if (ContractSchemaError.isInstance(error)) {
      return { ok: false, unreadable: false, message: error.message };
    }
    throw error;
  }
}

interface FileReport {
  file: string;
  valid: boolean;
  issues: ValidationIssue[];
}

async function validateCommand(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const options = parseOptions(args, ['kind', 'format']);
  if (options.kind === undefined) throw new UsageError('validate needs --kind');
  const kind = options.kind;
  let validate: (value: unknown) => Validation<unknown>;
  if (Object.hasOwn(VALIDATORS, kind)) validate = VALIDATORS[kind as Kind];
  else if (isJsonSchemaName(kind)) validate = (value) => validateWith(zodSchemaFor(kind), value);
  else {
    throw new UsageError(
      `--kind must be one of ${Object.keys(VALIDATORS).join(', ')} or a schema name, not "${kind}"`,
    );
  }
  if (options.positional.length === 0) throw new UsageError('validate needs at least one FILE');
  const reports: FileReport[] = [];
  let unreadable = false;
  for (const file of options.positional) {
    const loaded = await load(file, io);
    if (!loaded.ok) {
      unreadable ||= loaded.unreadable;
      reports.push({
        file,
        valid: false,
        issues: [
          validationIssue(
            loaded.unreadable ? 'unreadable' : 'invalid_document',
            [],
            loaded.message,
          ),
        ],
      });
      continue;
    }
    const result = validate(loaded.value);
    reports.push({ file, valid: result.success, issues: result.success ? [] : result.issues });
  }
  const valid = reports.every((report) => report.valid);
  if (options.format === 'json') {
    io.stdout(`${JSON.stringify({ valid, kind: options.kind, files: reports }, null, 2)}\n`);
  } else {
    for (const report of reports) {
      const name = report.file === '-' ? '<stdin>' : report.file;
      if (report.valid) {
        io.stdout(`✓ ${name}: valid ${options.kind}\n`);
        continue;
      }
      const count = report.issues.length;
      io.stdout(`✗ ${name}: ${count} problem${count === 1 ? '' : 's'}\n`);
      for (const issue of report.issues) io.stdout(`  ${issue.path}: ${issue.message}\n`);
    }
  }
  if (unreadable) return EXIT.usage;
  return valid ? EXIT.valid : EXIT.invalid;
}

async function targetsCommand(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const options = parseOptions(args, ['format', 'guardian']);
  if (options.positional.length !== 1) throw new UsageError('targets needs exactly one DESCRIPTOR');
  const file = options.positional[0] as string;
  const loaded = await load(file, io);
  if (!loaded.ok) {
    io.stderr(`dcg-contract: ${loaded.message}\n`);
    return loaded.unreadable ? EXIT.usage : EXIT.invalid;
  }
  // A COMPONENT_DESCRIPTOR payload wraps the system in `dataProduct` and names the guardian.
  const wrapped =
    typeof loaded.value === 'object' && loaded.value !== null && 'dataProduct' in loaded.value;
  const system = wrapped ? (loaded.value as { dataProduct: unknown }).dataProduct : loaded.value;
  const guardianId =
    options.guardian ??
    (wrapped
      ? (loaded.value as { componentIdToProvision?: unknown }).componentIdToProvision
      : undefined);
  const parsed = validateDescriptor(system);
  if (!parsed.success) {
    if (options.format === 'json') {
      io.stdout(`${JSON.stringify({ valid: false, file, issues: parsed.issues }, null, 2)}\n`);
    } else {
      io.stdout(`✗ ${file}: not a valid system descriptor\n`);
      for (const issue of parsed.issues) io.stdout(`  ${issue.path}: ${issue.message}\n`);
    }
    return EXIT.invalid;
  }
  let guardian: ComponentDescriptor | undefined;
  if (typeof guardianId === 'string') {
    guardian = findComponent(parsed.data, guardianId);
    if (guardian === undefined) {
      io.stderr(`dcg-contract: no component ${guardianId} in ${file}\n`);
      return EXIT.invalid;
    }
    // Only a guardian component narrows the selection; any other component means "all".
    if (guardian.__dataContractGuardianSpec === undefined) guardian = undefined;
  }
  const targets = selectContractTargets(parsed.data, { guardian }).map((target) => ({
    resourceId: target.resourceId,
    ...(target.component.name === undefined ? {} : { name: target.component.name }),
    resultKeys: target.resultKeys,
  }));
  if (options.format === 'json') {
    io.stdout(`${JSON.stringify(targets, null, 2)}\n`);
  } else if (targets.length === 0) {
    io.stdout('no data contracts\n');
  } else {
    for (const target of targets) {
      io.stdout(`${target.resourceId}\n  results keys: ${target.resultKeys.join(', ')}\n`);
    }
  }
  return EXIT.valid;
}

function schemaCommand(args: ReadonlyArray<string>, io: CliIo): number {
  const options = parseOptions(args, []);
  const name = options.positional[0];
  if (options.positional.length !== 1 || name === undefined) {
    throw new UsageError('schema needs exactly one NAME');
  }
  if (!isJsonSchemaName(name)) {
    throw new UsageError(`unknown schema "${name}"; known: ${JSON_SCHEMA_NAMES.join(', ')}`);
  }
  io.stdout(`${JSON.stringify(toDraft07JsonSchema(name), null, 2)}\n`);
  return EXIT.valid;
}

/**
 * Runs `dcg-contract` with the arguments after the program name and returns the exit code.
 * Never throws: bad input becomes a message on `stderr` and exit code 2.
 *
 * @example
 * const code = await run(['validate', '--kind', 'details', 'details.json'], io);
 */
export async function run(argv: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validateCommand(args, io);
      case 'targets':
        return await targetsCommand(args, io);
      case 'schema':
        return schemaCommand(args, io);
      case 'help':
      case '--help':
      case '-h':
        io.stdout(`${USAGE}\n`);
        return EXIT.valid;
      case undefined:
        throw new UsageError('missing command');
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`dcg-contract: ${error.message}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    // Anything else is a bug, but a CI log still gets one line, never a stack trace.
    io.stderr(
      `dcg-contract: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return EXIT.usage;
  }
}
