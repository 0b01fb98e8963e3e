import { type ParseArgsConfig, parseArgs } from 'node:util';
import { convertDatacontractCliRun } from './datacontract-cli';
import { GovernanceClient } from './governance-client';
import { GuardianSdkError } from './guardian-sdk-error';

/** What the CLI needs from its host: files, output, environment. */
export interface CliIo {
  readFile(path: string): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  /** The package version `--version` prints. */
  version: string;
}

/**
 * Exit codes, the same in the three dcg CLIs (dcg-contract, dcg-guardian, dcg-kg): 0 the check
 * passed (compliant), 1 it failed (violated), 2 no verdict (bad arguments, an input file that
 * cannot be read, a run whose checks did not run, a submission that failed).
 *
 * @example
 * if ((await runCli(argv, io)) === CLI_EXIT.violated) console.error('the contract is violated');
 */
export const CLI_EXIT = { compliant: 0, violated: 1, couldNotRun: 2 } as const;

const USAGE = `usage: dcg-guardian convert datacontract-cli RUN.json [--resource-id URN] [--display-name NAME]
         [--submit --url GOVERNANCE_URL --policy POLICY_ID --environment ENV]   (key: DCG_API_KEY)
       dcg-guardian --version | -V
       dcg-guardian --help | -h

Prints the A3 submission body (JSON) to stdout, or submits it with --submit.
Exit codes: 0 compliant, 1 violated, 2 could not run (bad arguments, a file that cannot be read,
a run whose checks did not run, submission failed; a run that could not run is never submitted).`;

const OPTIONS = {
  'resource-id': { type: 'string' },
  'display-name': { type: 'string' },
  submit: { type: 'boolean' },
  url: { type: 'string' },
  policy: { type: 'string' },
  environment: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies ParseArgsConfig['options'];

/**
 * The `dcg-guardian` command line, over injected I/O. Returns the exit code ({@link CLI_EXIT}).
 *
 * @example
 * const code = await runCli(['convert', 'datacontract-cli', 'run.json', '--resource-id', 'urn:x'], io);
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  if (args.length === 0) {
    // No arguments: the help, on stderr since nothing was done (as dcg-contract and dcg-kg).
    io.stderr(`${USAGE}\n`);
    return CLI_EXIT.couldNotRun;
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`dcg-guardian: ${(error as Error).message}\n\n${USAGE}\n`);
    return CLI_EXIT.couldNotRun;
  }
  const values = parsed.values as {
    'resource-id'?: string;
    'display-name'?: string;
    submit?: boolean;
    url?: string;
    policy?: string;
    environment?: string;
    help?: boolean;
    version?: boolean;
  };
  if (values.version) {
    io.stdout(`${io.version}\n`);
    return CLI_EXIT.compliant;
  }
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return CLI_EXIT.compliant;
  }
  const [command, format, file, ...extra] = parsed.positionals;
  if (command !== 'convert' || format !== 'datacontract-cli' || !file || extra.length > 0) {
    const why =
      command !== 'convert'
        ? `unknown command "${command}"`
        : format !== 'datacontract-cli'
          ? 'convert needs the format datacontract-cli'
          : !file
            ? 'convert datacontract-cli needs RUN.json'
            : `unexpected argument "${extra[0]}"`;
    io.stderr(`dcg-guardian: ${why}\n\n${USAGE}\n`);
    return CLI_EXIT.couldNotRun;
  }
  const submit = values.submit === true;
  let run: unknown;
  try {
    run = JSON.parse(await io.readFile(file));
  } catch (error) {
    io.stderr(`dcg-guardian: cannot read ${file}: ${(error as Error).message}\n`);
    return CLI_EXIT.couldNotRun;
  }
  // The URN of the data contract: --resource-id, else the run's dataContractId when it is one.
  const fromRun = (run as { dataContractId?: unknown } | null)?.dataContractId;
  const resourceId =
    values['resource-id'] ??
    (typeof fromRun === 'string' && fromRun.startsWith('urn:') ? fromRun : undefined);
  if (!resourceId) {
    io.stderr(
      `dcg-guardian: --resource-id is required (the URN of the data contract) unless the run's dataContractId is a URN\n\n${USAGE}\n`,
    );
    return CLI_EXIT.couldNotRun;
  }
  try {
    const displayName = values['display-name'];
    const converted = convertDatacontractCliRun(run, {
      resourceId,
      ...(displayName ? { displayName } : {}),
    });
    const code =
      CLI_EXIT[converted.outcome === 'could_not_run' ? 'couldNotRun' : converted.outcome];
    // A run that could not run is no verdict: said on stderr, and never submitted.
    if (converted.outcome === 'could_not_run') {
      io.stderr(`could not run: ${converted.reason}${submit ? '; nothing was submitted' : ''}\n`);
    }
    if (!submit) {
      io.stdout(`${JSON.stringify(converted.body, null, 2)}\n`);
      return code;
    }
    if (converted.outcome === 'could_not_run') return CLI_EXIT.couldNotRun;
    const { url, policy: policyId, environment } = values;
    if (!url || !policyId || !environment) {
      io.stderr(`dcg-guardian: --submit needs --url, --policy and --environment\n\n${USAGE}\n`);
      return CLI_EXIT.couldNotRun;
    }
    const client = new GovernanceClient({ baseUrl: url, apiKey: io.env.DCG_API_KEY });
    const receipt = await client.submit({ policyId, environment, body: converted.body });
    io.stdout(
      `${JSON.stringify({ submitted: true, status: receipt.status, answer: receipt.body })}\n`,
    );
    return code;
  } catch (error) {
    io.stderr(
      `dcg-guardian: ${GuardianSdkError.isInstance(error) ? `${error.code}: ` : ''}${(error as Error).message}\n`,
    );
    return CLI_EXIT.couldNotRun;
  }
}
