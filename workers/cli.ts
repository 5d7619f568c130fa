/**
 * `npx debugrl <command> …`. Each command lives in workers/commands/<command>.ts and exports
 * `run(args: string[]): Promise<number>` (the exit code) and a one-line `summary`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface Command {
  summary: string;
  run(args: string[]): Promise<number>;
}

function commandNames(): string[] {
  const dir = path.join(__dirname, 'commands');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.replace(/\.js$/, ''))
    .sort();
}

function load(name: string): Command {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(__dirname, 'commands', name)) as Command;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const names = commandNames();
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log('usage: npx debugrl <command> [options]\n\ncommands:');
    for (const n of names) console.log(`  ${n.padEnd(10)} ${load(n).summary}`);
    return name ? 0 : 2;
  }
  if (!names.includes(name)) {
    console.error(`debugrl: unknown command "${name}". Commands: ${names.join(', ')}`);
    return 2;
  }
  return load(name).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`debugrl: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
