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

const USAGE = `usage: dcg-guardian convert datacontract-cli RUN.json [--resource-id URN] [--display-name NAME]
         [--submit --url GOVERNANCE_URL --policy POLICY_ID --environment ENV]   (key: DCG_API_KEY)
       dcg-guardian --version | -V
       dcg-guardian --help | -h

Prints the A3 submission body (JSON) to stdout, or submits it with --submit.
Exit codes: 0 compliant, 1 violated, 2 could not run (bad input, a run whose checks did not run,
submission failed; a run that could not run is never submitted).`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

/**
 * The `dcg-guardian` command line, over injected I/O. Returns the exit code.
 *
 * @example
 * const code = await runCli(['convert', 'datacontract-cli', 'run.json', '--resource-id', 'urn:x'], io);
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  if (args[0] === '--version' || args[0] === '-V') {
    io.stdout(`${io.version}\n`);
    return 0;
  }
  if (args[0] === '--help' || args[0] === '-h') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (
    args[0] !== 'convert' ||
    args[1] !== 'datacontract-cli' ||
    !args[2] ||
    args[2].startsWith('--')
  ) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  let run: unknown;
  try {
    run = JSON.parse(await io.readFile(args[2]));
  } catch (error) {
    io.stderr(`cannot read ${args[2]}: ${(error as Error).message}\n`);
    return 2;
  }
  // The URN of the data contract: --resource-id, else the run's dataContractId when it is one.
  const fromRun = (run as { dataContractId?: unknown } | null)?.dataContractId;
  const resourceId =
    option(args, '--resource-id') ??
    (typeof fromRun === 'string' && fromRun.startsWith('urn:') ? fromRun : undefined);
  if (!resourceId) {
    io.stderr(
      `--resource-id is required (the URN of the data contract) unless the run's dataContractId is a URN\n${USAGE}\n`,
    );
    return 2;
  }
  try {
    const displayName = option(args, '--display-name');
    const converted = convertDatacontractCliRun(run, {
      resourceId,
      ...(displayName ? { displayName } : {}),
    });
    const code = converted.outcome === 'compliant' ? 0 : converted.outcome === 'violated' ? 1 : 2;
    // A run that could not run is no verdict: said on stderr, and never submitted.
    if (converted.outcome === 'could_not_run') {
      io.stderr(
        `could not run: ${converted.reason}${args.includes('--submit') ? '; nothing was submitted' : ''}\n`,
      );
    }
    if (!args.includes('--submit')) {
      io.stdout(`${JSON.stringify(converted.body, null, 2)}\n`);
      return code;
    }
    if (converted.outcome === 'could_not_run') return 2;
    const url = option(args, '--url');
    const policyId = option(args, '--policy');
    const environment = option(args, '--environment');
    if (!url || !policyId || !environment) {
      io.stderr('--submit needs --url, --policy and --environment\n');
      return 2;
    }
    const client = new GovernanceClient({ baseUrl: url, apiKey: io.env.DCG_API_KEY });
    const receipt = await client.submit({ policyId, environment, body: converted.body });
    io.stdout(
      `${JSON.stringify({ submitted: true, status: receipt.status, answer: receipt.body })}\n`,
    );
    return code;
  } catch (error) {
    io.stderr(
      `${GuardianSdkError.isInstance(error) ? `${error.code}: ` : ''}${(error as Error).message}\n`,
    );
    return 2;
  }
}
