/** A sandboxed process killed in bwrap's first milliseconds must not outlive its sandbox. Before Sandbox.destroy
 * swept the sandbox's uid, a kill 2–5 ms after the spawn left a bwrap and its child running (holding pipes open) in
 * a few of every 30 tries; the window depends on the machine's load, so the test sweeps 0–10 ms. */
import { execSync } from 'node:child_process';
import * as path from 'node:path';
import { loadConfig } from '../common/config';
import { harnessEnv } from '../harness/env';
import { killGroup, Sandbox } from '../harness/sandbox';

it('leaves no process behind when a just-started process is killed and the sandbox destroyed', async () => {
  const marker = `sleep ${300 + Math.floor(Math.random() * 600)}`; // a distinctive command line to look for
  for (let i = 0; i < 44; i++) {
    const sb = await Sandbox.create({ harnessEnv: harnessEnv(loadConfig()), workspaceFrom: path.join(__dirname, 'fixtures/tasks/shared_default_tags/workspace') });
    const child = sb.spawn(marker.split(' '), {});
    await new Promise((r) => setTimeout(r, i % 11)); // 0–10 ms: inside bwrap's start-up
    killGroup(child);
    await sb.destroy();
  }
  await new Promise((r) => setTimeout(r, 300));
  const left = execSync('ps -eo args', { encoding: 'utf8' }).split('\n').filter((l) => l.includes(marker));
  expect(left).toEqual([]);
}, 120_000);
