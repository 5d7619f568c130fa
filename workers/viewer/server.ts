/** The rollout viewer: a small hono app over PostgreSQL (read-only) and the report files.
 *
 *   /                                  evaluations
 *   /evaluations/:id                   configuration, results with bootstrap CIs, running and finished episodes
 *   /evaluations/:id/report            the evaluation's HTML report
 *   /episodes/:id                      turn by turn; a live episode refreshes itself
 *   /tasks/:id                         the task, its calibration, every stored episode on it
 *   /compare?a=&b=                     per-task deltas and paired bootstrap intervals; /compare/task for side by side;
 *                                      &c= (and d…j): the side-by-side table of three or more (base, SFT, RL)
 *   /training, /training/:run          training runs: per-step curves and groups
 *   /api/episodes/:id                  the episode view as JSON (for live pages and scripts)
 *
 * An unknown id is a 404 page that names it; a database that cannot be reached is a 503 page that says so. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Hono } from 'hono';
import type { Pool } from 'pg';
import { bootstrapPassAtK } from '../../common/bootstrap';
import { loadCalibration } from '../../taskset/calibration';
import { loadTask, resolveTaskDir } from '../../taskset/task-loader';
import { compareEvaluations, compareMany } from './compare';
import * as pages from './pages';
import * as store from './store';

export interface ViewerOptions {
  pool: Pool;
  tasksDir: string;
  temporalUi: string;
  namespace: string;
}

export function createViewer(opts: ViewerOptions): Hono {
  const app = new Hono();
  const links: pages.Links = { temporalUi: opts.temporalUi.replace(/\/$/, ''), namespace: opts.namespace };
  const { pool } = opts;

  app.get('/', async (c) => c.html(pages.evaluationsPage(await store.listEvaluations(pool))));

  app.get('/evaluations/:id', async (c) => {
    const id = c.req.param('id');
    const e = await store.getEvaluation(pool, id);
    const [episodes, live] = await Promise.all([store.episodesOfEvaluation(pool, id), store.liveEpisodes(pool, id)]);
    const k = Number(e.input.k ?? 1);
    const intervals = new Map<string, { p1: ReturnType<typeof bootstrapPassAtK>; pk: ReturnType<typeof bootstrapPassAtK>; k: number }>();
    for (const a of e.arms ?? []) {
      const counts = await store.taskCounts(pool, id, a.arm.label);
      intervals.set(a.arm.label, { p1: bootstrapPassAtK(counts, 1), pk: bootstrapPassAtK(counts, k), k });
    }
    return c.html(pages.evaluationPage(e, episodes, live, intervals, links));
  });

  app.get('/evaluations/:id/report', async (c) => {
    const e = await store.getEvaluation(pool, c.req.param('id'));
    const file = e.reportDir ? path.join(e.reportDir, 'report.html') : null;
    if (!file || !fs.existsSync(file)) throw new store.NotFound('report for evaluation', e.evaluationId);
    return c.html(fs.readFileSync(file, 'utf8'));
  });

  app.get('/episodes/:id', async (c) => c.html(pages.episodePage(await store.getEpisode(pool, c.req.param('id')), links)));
  app.get('/api/episodes/:id', async (c) => c.json(await store.getEpisode(pool, c.req.param('id'))));

  app.get('/tasks/:id', async (c) => {
    const id = c.req.param('id');
    let task = null;
    try {
      const t = loadTask(resolveTaskDir(id, opts.tasksDir)).spec;
      task = { description: t.title, split: t.split, debuggerPreference: t.debugger, category: t.category };
    } catch {
      task = null;
    }
    const episodes = await store.episodesOfTask(pool, id);
    if (!task && !episodes.length) throw new store.NotFound('task', id);
    let calibration: unknown = null;
    try {
      calibration = loadCalibration(path.join(opts.tasksDir, 'calibration.json')).tasks[id] ?? null;
    } catch (e) {
      calibration = { error: (e as Error).message };
    }
    return c.html(pages.taskPage(id, task, calibration, episodes, links));
  });

  app.get('/compare', async (c) => {
    const a = c.req.query('a');
    const b = c.req.query('b');
    if (!a || !b) return c.html(pages.compareFormPage(await store.listEvaluations(pool)));
    const more = ['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((k) => c.req.query(k)).filter((id): id is string => !!id);
    if (more.length) return c.html(pages.comparisonTablePage(await compareMany(pool, [a, b, ...more])));
    const cmp = await compareEvaluations(pool, a, b);
    return c.html(pages.comparePage(cmp.a.evaluationId, cmp.b.evaluationId, cmp.rows, cmp.diff));
  });

  app.get('/compare/task', async (c) => {
    const [a, b, task] = [c.req.query('a') ?? '', c.req.query('b') ?? '', c.req.query('task') ?? ''];
    await Promise.all([store.getEvaluation(pool, a), store.getEvaluation(pool, b)]);
    const [ea, eb] = await Promise.all([store.episodesOfEvaluation(pool, a), store.episodesOfEvaluation(pool, b)]);
    return c.html(pages.sideBySidePage(task, a, b, ea.filter((e) => e.taskId === task), eb.filter((e) => e.taskId === task), links));
  });

  app.get('/training', async (c) => c.html(pages.trainingRunsPage(await store.listTrainingRuns(pool))));
  app.get('/training/:run', async (c) => {
    const runs = await store.listTrainingRuns(pool);
    const id = c.req.param('run');
    if (!runs.some((r) => r.runId === id)) throw new store.NotFound('training run', id);
    return c.html(pages.trainingRunPage(await store.getTrainingRun(pool, id), links));
  });

  app.notFound((c) => c.html(pages.errorPage(404, 'Not found', `There is no page at ${c.req.path}.`), 404));
  app.onError((err, c) => {
    if (err instanceof store.NotFound) return c.html(pages.errorPage(404, 'Not found', err.message), 404);
    if (err instanceof store.DatabaseUnavailable) {
      return c.html(pages.errorPage(503, 'Database unavailable', `PostgreSQL cannot be reached (${err.message}). Start it with infra/up, then reload this page.`), 503);
    }
    console.error(`viewer: ${c.req.path}: ${err.stack ?? err.message}`);
    return c.html(pages.errorPage(500, 'Something went wrong', `${err.message}. The server log has the details.`), 500);
  });
  return app;
}
