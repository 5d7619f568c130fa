/**
 * `npx debugrl <command> …`, built on commander. Every module in workers/commands/ is one command, found at start-up.
 *
 * Writing a command (the pattern every module follows):
 *
 *   import type { Command } from 'commander';
 *   import { action, intOption } from '../cli-kit';
 *   export function register(program: Command): void {
 *     program
 *       .command('show')                                   // the name users type
 *       .summary('one line for `debugrl --help`')
 *       .description('a paragraph for `debugrl show --help`')
 *       .argument('<episode-id>')
 *       .option('--turns <n>', 'how many turns', intOption('--turns', 1, 500), 10)
 *       .action(action(async (episodeId: string, opts: { turns: number }) => { …; return 0; }));  // the exit status
 *   }
 *
 * The options are declared once, and commander generates the usage and `--help` from them. Name options as the
 * README does (`--max-turns`, not `--maxTurns`); commander hands them to the action camel-cased (`opts.maxTurns`).
 * A usage mistake (an unknown option, a bad number, a missing argument) exits 2 with commander's message; an action's
 * returned number is the exit status (0 ok, 1 the thing failed, 2 bad usage or configuration). A thrown error prints
 * its message and cause chain and exits 1.
 *
 * Older modules that export `{ summary, run(args: string[]): Promise<number> }` still work: they are registered as
 * passthrough commands that hand their raw arguments, `--help` included, to `run`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command, CommanderError } from 'commander';
import { action, describeError } from './cli-kit';

interface LegacyModule {
  summary: string;
  run(args: string[]): Promise<number>;
}
interface CommandModule {
  register(program: Command): void;
}

function commandModules(): string[] {
  const dir = path.join(__dirname, 'commands');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.replace(/\.js$/, ''))
    .sort();
}

function registerModule(program: Command, name: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(__dirname, 'commands', name)) as Partial<CommandModule & LegacyModule>;
  if (typeof mod.register === 'function') {
    mod.register(program);
  } else if (typeof mod.run === 'function') {
    const run = mod.run;
    program
      .command(name)
      .summary(mod.summary ?? '')
      .argument('[args...]')
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .action(action((_args: string[], _opts: unknown, cmd: Command) => run(cmd.args)));
  } else {
    throw new Error(`workers/commands/${name}: exports neither register(program) nor run(args)`);
  }
}

function buildProgram(): Command {
  const program = new Command('debugrl')
    .usage('<command> [options]')
    .description('Train and evaluate LLM agents that fix Python bugs with a real debugger.')
    // Subcommands made with .command() inherit these two settings.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  for (const name of commandModules()) registerModule(program, name);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version' ? 0 : 2;
    }
    throw e;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`debugrl: ${describeError(err)}`);
    process.exit(1);
  },
);
