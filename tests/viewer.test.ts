/** The rollout viewer in a real browser (Debian's chromium through playwright-core), against a real evaluation that
 * this test runs on the real Temporal, PostgreSQL, Kafka, bubblewrap and pdb. It checks that the numbers shown equal
 * report.json, that every link resolves, that a live episode page follows its episode, that no page logs a console
 * error, and the 404 and database-down pages. Set DEBUGRL_SCREENSHOTS_DIR to keep screenshots of the main pages. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Pool } from 'pg';
import { chromium, type Browser, type Page } from 'playwright-core';
import { episodeIdFor } from '../common/episode';
import { EpisodeWorkflow } from '../workflows/episode';
import { EvaluationWorkflow } from '../workflows/evaluation';
import { createViewer } from '../workers/viewer/server';
import { FIXTURE_TASKS, fixCalls, inProcessWorkers, writeScript, type InProcessWorkers } from './helpers/episodes';
import { config, quietRuntime, temporalClient } from './helpers/services';

const CHROMIUM = process.env.DEBUGRL_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = process.env.DEBUGRL_SCREENSHOTS_DIR;

function listen(app: ReturnType<typeof createViewer>): Promise<{ server: ServerType; base: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve({ server, base: `http://127.0.0.1:${info.port}` }));
  });
}

describe('rollout viewer (real browser, real evaluation)', () => {
  let w: InProcessWorkers;
  let pool: Pool;
  let browser: Browser;
  let server: ServerType;
  let base: string;
  let evaluationId: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    quietRuntime();
    w = await inProcessWorkers('viewer-test');
    pool = new Pool({ connectionString: config.DEBUGRL_DATABASE_URL, max: 4 });
    ({ server, base } = await listen(createViewer({ pool, tasksDir: FIXTURE_TASKS, temporalUi: 'http://127.0.0.1:8233', namespace: 'default' })));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });

    // One task fixed, one left failing, two episodes each: pass@1 = 50 %.
    const dir = path.dirname(writeScript([]));
    const write = (task: string, calls: unknown[]) => fs.writeFileSync(path.join(dir, `${task}.jsonl`), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
    write('shared_default_tags', [{ name: 'run_tests', arguments: {} }, ...fixCalls(path.join(FIXTURE_TASKS, 'shared_default_tags')), { name: 'run_tests', arguments: {} }, { name: 'done', arguments: {} }]);
    write('reentrant_lock_hang', [{ name: 'read_file', arguments: { path: 'locks.py' } }, { name: 'done', arguments: {} }]);
    evaluationId = `viewer-test-${Date.now()}`;
    const { client, connection } = await temporalClient();
    try {
      await w.run(
        client.workflow.execute(EvaluationWorkflow, {
          taskQueue: w.taskQueue,
          workflowId: evaluationId,
          args: [{ policy: `scripted:${dir}`, taskIds: ['reentrant_lock_hang', 'shared_default_tags'], episodesPerTask: 2, k: 2, concurrency: 2 }],
        }),
      );
    } finally {
      await connection.close();
    }
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await pool?.end();
    await w?.close();
  });

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${url}: ${m.text()}`));
    page.on('pageerror', (e) => consoleErrors.push(`${url}: ${e.message}`));
    const res = await page.goto(base + url);
    expect(res?.status()).toBe(200);
    return page;
  }

  async function shot(page: Page, name: string) {
    if (!SHOTS) return;
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** Every same-origin link on the page answers 200. */
  async function linksResolve(page: Page) {
    const hrefs = await page.$$eval('a[href^="/"]', (as) => [...new Set(as.map((a) => a.getAttribute('href')!))]);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      const r = await fetch(base + href);
      expect(`${href} ${r.status}`).toBe(`${href} 200`);
    }
  }

  it('lists the evaluation and shows the numbers of report.json, with an episode row per episode', async () => {
    const list = await open('/');
    expect(await list.locator(`a[href="/evaluations/${evaluationId}"]`).count()).toBeGreaterThan(0);
    await shot(list, 'viewer-evaluations');

    const row = await pool.query('select report_dir from evaluations where evaluation_id = $1', [evaluationId]);
    const report = JSON.parse(fs.readFileSync(path.join(row.rows[0].report_dir, 'report.json'), 'utf8'));
    const summary = report.arms[0].summary;
    expect(summary.passAt1).toBeCloseTo(0.5, 6); // (2/2 + 0/2) / 2 tasks

    const page = await open(`/evaluations/${evaluationId}`);
    const text = await page.locator('main').innerText();
    expect(text).toContain(`${(100 * summary.passAt1).toFixed(1)}%`);
    expect(text).toContain(`${(100 * summary.passAtK).toFixed(1)}%`);
    expect(text).toMatch(/turn cap\s+50/);
    expect(await page.locator('a[href^="/episodes/"]').count()).toBe(summary.episodes);
    await shot(page, 'viewer-evaluation');
    await linksResolve(page);
  });

  it('shows an episode turn by turn: calls, observations, the edit as a diff, tests over time and the grade', async () => {
    const r = await pool.query(`select episode_id from episodes where evaluation_id = $1 and task_id = 'shared_default_tags' and passed limit 1`, [evaluationId]);
    const page = await open(`/episodes/${encodeURIComponent(r.rows[0].episode_id)}`);
    expect(await page.locator('.turn').count()).toBe(4);
    expect(await page.locator('.turn .add').count()).toBeGreaterThan(0); // the fix as added lines
    const text = await page.locator('main').innerText();
    expect(text).toContain('Grade: pass');
    expect(text).toContain('Tests over the episode');
    await shot(page, 'viewer-episode');
    await linksResolve(page);
  });

  it('shows a task with its episodes, and compares an evaluation with itself as noise around 0', async () => {
    await linksResolve(await open('/tasks/shared_default_tags'));
    const page = await open(`/compare?a=${evaluationId}&b=${evaluationId}`);
    expect(await page.locator('main').innerText()).toMatch(/pass@1: 0\.0 pp \(95% CI 0\.0 to 0\.0 pp\)/);
    await linksResolve(page);
  });

  it('follows a live episode: the page refreshes itself as turns arrive, and stops once the record exists', async () => {
    const script = writeScript([
      { name: 'bash', arguments: { command: 'sleep 3; echo one' } },
      { name: 'bash', arguments: { command: 'sleep 3; echo two' } },
      { name: 'done', arguments: {} },
    ]);
    const { client, connection } = await temporalClient();
    try {
      const handle = await client.workflow.start(EpisodeWorkflow, { taskQueue: w.taskQueue, workflowId: `viewer-live-${Date.now()}`, args: [{ taskId: 'shared_default_tags', policy: `scripted:${script}` }] });
      const episodeId = episodeIdFor(handle.workflowId, handle.firstExecutionRunId);
      let page: Page | null = null;
      for (let i = 0; i < 100 && !page; i++) {
        const res = await fetch(`${base}/episodes/${encodeURIComponent(episodeId)}`);
        if (res.status === 200) page = await open(`/episodes/${encodeURIComponent(episodeId)}`);
        else await new Promise((r) => setTimeout(r, 200));
      }
      expect(page).not.toBeNull();
      expect(await page!.locator('main').innerText()).toContain('running');
      const before = await page!.locator('.turn').count();
      // Page functions run in the browser; given as strings, they need no DOM types here.
      await page!.waitForFunction(`document.querySelectorAll('.turn').length > ${before}`, undefined, { timeout: 30_000 });
      await w.run(handle.result());
      await page!.waitForFunction(`document.body.innerText.includes('Grade:') && !document.body.innerText.includes('refreshes itself')`, undefined, { timeout: 30_000 });
    } finally {
      await connection.close();
    }
  }, 120_000);

  it('answers an unknown id with a 404 page that names it, and a database that is down with a 503 page', async () => {
    for (const url of ['/evaluations/no-such-eval', '/episodes/no-such-episode', '/tasks/no_such_task', '/nowhere']) {
      const res = await fetch(base + url);
      expect(res.status).toBe(404);
      expect(await res.text()).toMatch(/Not found/);
    }
    expect(await (await fetch(`${base}/episodes/no-such-episode`)).text()).toContain('no episode with id &quot;no-such-episode&quot;');

    const deadPool = new Pool({ connectionString: 'postgres://debugrl:debugrl@127.0.0.1:1/debugrl', connectionTimeoutMillis: 2000 });
    const dead = await listen(createViewer({ pool: deadPool, tasksDir: FIXTURE_TASKS, temporalUi: 'http://127.0.0.1:8233', namespace: 'default' }));
    try {
      const res = await fetch(`${dead.base}/`);
      const body = await res.text();
      expect(body).toContain('PostgreSQL cannot be reached');
      expect(res.status).toBe(503);
      expect(body).not.toMatch(/at \w+ \(/); // no stack trace
    } finally {
      dead.server.close();
      await deadPool.end();
    }
  });

  it('logged no console errors on any page', () => {
    expect(consoleErrors).toEqual([]);
  });
});
