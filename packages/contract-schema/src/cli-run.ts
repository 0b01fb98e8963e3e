import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  type CliFileReport,
  type CliFinding,
  formatJson,
  formatJunit,
  formatText,
  githubAnnotations,
} from './cli-report';
import type { ComponentDescriptor, SystemDescriptor } from './descriptor';
import { lintDescriptor } from './descriptor-lint';
import type { DocumentIssue } from './document-parse';
import { safeParseDocumentText } from './document-text';
import { findComponent } from './find-component';
import {
  isJsonSchemaName,
  JSON_SCHEMA_NAMES,
  toDraft07JsonSchema,
  zodSchemaFor,
} from './json-schemas';
import { locatePath } from './source-location';
import { selectContractTargets } from './target-selection';
import {
  type Validation,
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
  /**
   * FILE arguments as files: a folder becomes the JSON and YAML files under it, a glob (quoted,
   * so that the shell leaves it alone) the files it matches, in a stable order; `-` stays.
   * `unmatched` lists the arguments that named no file.
   */
  expandPaths(args: readonly string[]): Promise<{ files: string[]; unmatched: string[] }>;
  /** The environment: `GITHUB_ACTIONS=true` adds annotations. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The package version `--version` prints. */
  readonly version: string;
}

/**
 * Exit codes of `dcg-contract`, the same in the three dcg CLIs (dcg-contract, dcg-guardian,
 * dcg-kg): 0 the check passed, 1 it failed, 2 no verdict (usage error, a file that cannot be read).
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

const COMMON = `FILE is JSON or YAML; "-" reads standard input; a folder means the .json, .yaml and .yml
files under it; a quoted glob ('contracts/**/*.yaml') the files it matches.
Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable file (as dcg-guardian and dcg-kg).`;

const HELP = {
  validate: `Usage: dcg-contract validate --kind KIND [--strict] [--format text|json|junit] FILE...

Validates each FILE and reports every problem of it, with its JSON path.
  --kind    details | submission | template | descriptor, or a schema name:
            ${JSON_SCHEMA_NAMES.join(', ')}
  --strict  warnings are errors (descriptor: unknown keys, ids that are not URNs, no data contract)
  --format  text (default), json, or junit (JUnit XML for CI test reports)
In GitHub Actions (GITHUB_ACTIONS=true) each problem is also printed as an annotation.

${COMMON}`,
  targets: `Usage: dcg-contract targets [--guardian URN] [--strict] [--format text|json] DESCRIPTOR

Prints the data contracts a guardian monitors (A5) and the results keys of each. DESCRIPTOR is a
system descriptor or a COMPONENT_DESCRIPTOR payload ({ dataProduct, componentIdToProvision }).
  --guardian  the guardian component (default: componentIdToProvision of a payload; else all)
  --strict    warnings (unknown keys, no data contract…) are errors
  --format    text (default) or json
${COMMON}`,
  schema: `Usage: dcg-contract schema NAME

Prints the draft-07 JSON Schema NAME: ${JSON_SCHEMA_NAMES.join(', ')}.`,
} as const;
type Command = keyof typeof HELP;

const USAGE = `Usage:
  dcg-contract validate --kind details|submission|template|descriptor|SCHEMA [--strict] [--format text|json|junit] FILE...
  dcg-contract targets [--guardian URN] [--strict] [--format text|json] DESCRIPTOR
  dcg-contract schema NAME
  dcg-contract help [COMMAND] | COMMAND --help | -h
  dcg-contract --version | -V

${COMMON}
Schemas: ${JSON_SCHEMA_NAMES.join(', ')}`;

class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string = USAGE,
  ) {
    super(message);
  }
}

interface Options {
  kind?: string;
  format: 'text' | 'json' | 'junit';
  guardian?: string;
  strict: boolean;
  help: boolean;
  positional: string[];
}

function parseOptions(
  command: Command,
  args: ReadonlyArray<string>,
  allowed: ReadonlyArray<'kind' | 'format' | 'guardian' | 'strict'>,
  formats: ReadonlyArray<Options['format']> = ['text', 'json'],
): Options {
  const usage = HELP[command];
  const spec: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const name of allowed) spec[name] = { type: name === 'strict' ? 'boolean' : 'string' };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    // The same parser as dcg-guardian and dcg-kg: `-` is a FILE, `--` ends the options.
    parsed = parseArgs({ args: [...args], options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, usage);
  }
  const { values, positionals } = parsed;
  const format = (values.format as string | undefined) ?? 'text';
  if (!(formats as string[]).includes(format)) {
    throw new UsageError(`--format must be ${formats.join(' or ')}, not "${format}"`, usage);
  }
  return {
    format: format as Options['format'],
    strict: values.strict === true,
    help: values.help === true,
    positional: positionals,
    ...(typeof values.kind === 'string' ? { kind: values.kind } : {}),
    ...(typeof values.guardian === 'string' ? { guardian: values.guardian } : {}),
  };
}

type Loaded =
  | { ok: true; value: unknown; text: string }
  | { ok: false; unreadable: boolean; finding: CliFinding };

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
    return {
      ok: false,
      unreadable: true,
      finding: validationIssue('unreadable', [], `cannot read ${file}: ${reason}`),
    };
  }
  const parsed = safeParseDocumentText(text, file === '-' ? 'stdin' : file);
  if (parsed.success) return { ok: true, text, value: parsed.data };
  const [issue] = parsed.issues as [DocumentIssue];
  // A file that does not parse is reported at the document root, with the line and column.
  return {
    ok: false,
    unreadable: false,
    finding: {
      ...validationIssue(issue.code, [], issue.message),
      ...(issue.location === undefined ? {} : { location: issue.location }),
    },
  };
}

/** Findings located in the text they came from. */
function located(text: string, findings: readonly CliFinding[]): CliFinding[] {
  return findings.map((finding) => {
    const location = locatePath(text, finding.path);
    return location === undefined ? finding : { ...finding, location };
  });
}

async function files(options: Options, io: CliIo, usage: string): Promise<string[]> {
  const { files: expanded, unmatched } = await io.expandPaths(options.positional);
  if (unmatched.length > 0) {
    throw new UsageError(`no JSON or YAML file matches ${unmatched.join(', ')}`, usage);
  }
  return expanded;
}

async function validateCommand(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const options = parseOptions(
    'validate',
    args,
    ['kind', 'format', 'strict'],
    ['text', 'json', 'junit'],
  );
  if (options.help) return help('validate', io);
  if (options.kind === undefined) throw new UsageError('validate needs --kind', HELP.validate);
  const kind = options.kind;
  let validate: (value: unknown) => Validation<unknown>;
  if (Object.hasOwn(VALIDATORS, kind)) validate = VALIDATORS[kind as Kind];
  else if (isJsonSchemaName(kind)) validate = (value) => validateWith(zodSchemaFor(kind), value);
  else {
    throw new UsageError(
      `--kind must be one of ${Object.keys(VALIDATORS).join(', ')} or a schema name, not "${kind}"`,
      HELP.validate,
    );
  }
  if (options.positional.length === 0) {
    throw new UsageError('validate needs at least one FILE', HELP.validate);
  }
  const reports: CliFileReport[] = [];
  for (const file of await files(options, io, HELP.validate)) {
    const loaded = await load(file, io);
    if (!loaded.ok) {
      reports.push({
        file,
        valid: false,
        unreadable: loaded.unreadable,
        errors: [loaded.finding],
        warnings: [],
      });
      continue;
    }
    const result = validate(loaded.value);
    const errors: CliFinding[] = result.success ? [] : [...result.issues];
    const warnings: CliFinding[] = [];
    if (result.success && kind === 'descriptor') {
      for (const finding of lintDescriptor(result.data as SystemDescriptor)) {
        const { severity, ...issue } = finding;
        (severity === 'error' ? errors : warnings).push(issue);
      }
    }
    const valid = errors.length === 0 && (!options.strict || warnings.length === 0);
    reports.push({
      file,
      valid,
      unreadable: false,
      errors: located(loaded.text, errors),
      warnings: located(loaded.text, warnings),
    });
  }
  if (options.format === 'json') io.stdout(formatJson(reports, kind, options.strict));
  else if (options.format === 'junit') io.stdout(formatJunit(reports, kind));
  else io.stdout(formatText(reports, kind));
  if (io.env.GITHUB_ACTIONS === 'true') {
    // Workflow commands work on either stream; stderr keeps json/junit output parseable.
    const annotations = githubAnnotations(reports, options.strict);
    if (options.format === 'text') io.stdout(annotations);
    else io.stderr(annotations);
  }
  if (reports.some((report) => report.unreadable)) return EXIT.usage;
  return reports.every((report) => report.valid) ? EXIT.valid : EXIT.invalid;
}

async function targetsCommand(args: ReadonlyArray<string>, io: CliIo): Promise<number> {
  const options = parseOptions('targets', args, ['format', 'guardian', 'strict']);
  if (options.help) return help('targets', io);
  if (options.positional.length !== 1) {
    throw new UsageError('targets needs exactly one DESCRIPTOR', HELP.targets);
  }
  const file = options.positional[0] as string;
  const loaded = await load(file, io);
  if (!loaded.ok) {
    io.stderr(`dcg-contract: ${loaded.finding.message}\n`);
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
  const findings = lintDescriptor(parsed.data);
  const prefix = wrapped ? '$.dataProduct' : '$';
  for (const finding of findings) {
    const label = finding.severity === 'error' || options.strict ? 'error' : 'warning';
    io.stderr(
      `dcg-contract: ${label}: ${file}: ${prefix}${finding.path.slice(1)}: ${finding.message}\n`,
    );
  }
  if (findings.some((finding) => finding.severity === 'error' || options.strict)) {
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
  const options = parseOptions('schema', args, []);
  if (options.help) return help('schema', io);
  const name = options.positional[0];
  if (options.positional.length !== 1 || name === undefined) {
    throw new UsageError('schema needs exactly one NAME', HELP.schema);
  }
  if (!isJsonSchemaName(name)) {
    throw new UsageError(
      `unknown schema "${name}"; known: ${JSON_SCHEMA_NAMES.join(', ')}`,
      HELP.schema,
    );
  }
  io.stdout(`${JSON.stringify(toDraft07JsonSchema(name), null, 2)}\n`);
  return EXIT.valid;
}

function help(command: Command | undefined, io: CliIo): number {
  io.stdout(`${command === undefined ? USAGE : HELP[command]}\n`);
  return EXIT.valid;
}

const isCommand = (value: string | undefined): value is Command =>
  value !== undefined && Object.hasOwn(HELP, value);

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
      case 'version':
      case '--version':
      case '-V':
        io.stdout(`${io.version}\n`);
        return EXIT.valid;
      case 'help':
      case '--help':
      case '-h': {
        const topic = args[0];
        if (topic !== undefined && !isCommand(topic)) {
          throw new UsageError(`unknown command "${topic}"`);
        }
        return help(topic, io);
      }
      case undefined:
        // No arguments: the help, on stderr since nothing was done (as dcg-guardian and dcg-kg).
        io.stderr(`${USAGE}\n`);
        return EXIT.usage;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`dcg-contract: ${error.message}\n\n${error.usage}\n`);
      return EXIT.usage;
    }
    // Anything else is a bug, but a CI log still gets one line, never a stack trace.
    io.stderr(
      `dcg-contract: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return EXIT.usage;
  }
}
